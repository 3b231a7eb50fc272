import { eq, max } from 'drizzle-orm';
import type { AdminRoutingRule, CreateRoutingRuleBody, RoutingConditionInput } from '@/contracts/admin/schemas/routing';
import type { Db } from '@/db/client';
import { routingRules } from '@/db/schema';
import type { RoutingCondition } from '@/db/schema/routing';
import { requireSkill } from '@/lib/chats/assignment';
import { requireAccountTeam } from '@/lib/teams/check-references';
import { loadRoutingRuleOrFail } from './list-routing-rules';

// The contract's condition shape is the one `chooseTeam` evaluates.
export const toConditions = (c: RoutingConditionInput[]): RoutingCondition[] => c satisfies RoutingCondition[];

/** Appends a rule after the last one unless a `position` is given. */
export async function createRoutingRule(
  db: Db,
  { accountId, body }: { accountId: number; body: CreateRoutingRuleBody },
): Promise<AdminRoutingRule> {
  const id = await db.transaction(async (tx) => {
    await requireAccountTeam(tx, { accountId, teamId: body.team_id, field: 'team_id' });
    if (body.skill) await requireSkill(tx, { teamId: body.team_id, name: body.skill, field: 'skill' });
    const [rule] = await tx
      .insert(routingRules)
      .values({
        accountId,
        name: body.name,
        conditions: toConditions(body.conditions),
        teamId: body.team_id,
        skill: body.skill ?? null,
        enabled: body.enabled ?? true,
        position: body.position ?? (await nextPosition(tx, accountId)),
      })
      .returning({ id: routingRules.id });
    return rule.id;
  });
  return loadRoutingRuleOrFail(db, { accountId, ruleId: id });
}

async function nextPosition(tx: Db, accountId: number): Promise<number> {
  const [row] = await tx
    .select({ last: max(routingRules.position) })
    .from(routingRules)
    .where(eq(routingRules.accountId, accountId));
  return row.last === null ? 0 : row.last + 1;
}
