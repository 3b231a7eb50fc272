import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { AdminRoutingRule } from '@/contracts/admin/schemas/routing';
import type { Db } from '@/db/client';
import { routingRules, teams } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** The account's rules in the order `chooseTeam` tries them. */
export async function listRoutingRules(
  db: Db,
  { accountId, ruleIds }: { accountId: number; ruleIds?: number[] },
): Promise<AdminRoutingRule[]> {
  const where: SQL[] = [eq(routingRules.accountId, accountId)];
  if (ruleIds) where.push(inArray(routingRules.id, ruleIds));
  const rows = await db
    .select({ rule: routingRules, teamName: teams.name })
    .from(routingRules)
    .innerJoin(teams, eq(teams.id, routingRules.teamId))
    .where(and(...where))
    .orderBy(asc(routingRules.position), asc(routingRules.id));
  return rows.map(({ rule, teamName }) => ({
    id: rule.id,
    name: rule.name,
    position: rule.position,
    enabled: rule.enabled,
    conditions: rule.conditions,
    team_id: rule.teamId,
    team_name: teamName,
    skill: rule.skill,
    created_at: rule.createdAt.toISOString(),
    updated_at: rule.updatedAt.toISOString(),
  }));
}

export async function loadRoutingRuleOrFail(
  db: Db,
  { accountId, ruleId }: { accountId: number; ruleId: number },
): Promise<AdminRoutingRule> {
  const [rule] = await listRoutingRules(db, { accountId, ruleIds: [ruleId] });
  if (!rule) throw new ApiError(3006, { detail: `no routing rule ${ruleId}` });
  return rule;
}
