import { and, eq } from 'drizzle-orm';
import type { AdminRoutingRule, UpdateRoutingRuleBody } from '@/contracts/admin/schemas/routing';
import type { Db } from '@/db/client';
import { routingRules } from '@/db/schema';
import { requireSkill } from '@/lib/chats/assignment';
import { requireAccountTeam } from '@/lib/teams/check-references';
import { ApiError } from '@/platform/errors';
import { toConditions } from './create-routing-rule';
import { loadRoutingRuleOrFail } from './list-routing-rules';

/** Only the fields sent change; the rule's skill must stay a skill of its (possibly new) team. */
export async function updateRoutingRule(
  db: Db,
  { accountId, ruleId, patch }: { accountId: number; ruleId: number; patch: UpdateRoutingRuleBody },
): Promise<AdminRoutingRule> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(routingRules)
      .where(and(eq(routingRules.id, ruleId), eq(routingRules.accountId, accountId)))
      .for('update');
    if (!current) throw new ApiError(3006, { detail: `no routing rule ${ruleId}` });
    const teamId = patch.team_id ?? current.teamId;
    const skill = patch.skill === undefined ? current.skill : patch.skill;
    if (patch.team_id !== undefined) await requireAccountTeam(tx, { accountId, teamId, field: 'team_id' });
    const skillChecked = patch.team_id !== undefined || patch.skill !== undefined;
    if (skill && skillChecked) await requireSkill(tx, { teamId, name: skill, field: 'skill' });
    const set: Partial<typeof routingRules.$inferInsert> = { teamId, skill, updatedAt: new Date() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.conditions !== undefined) set.conditions = toConditions(patch.conditions);
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    if (patch.position !== undefined) set.position = patch.position;
    await tx.update(routingRules).set(set).where(eq(routingRules.id, ruleId));
  });
  return loadRoutingRuleOrFail(db, { accountId, ruleId });
}
