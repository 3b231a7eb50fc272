import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts, routingRules, teams } from '@/db/schema';
import type { RoutingCondition } from '@/db/schema/routing';
import { ApiError } from '@/platform/errors';

export type RoutingFacts = {
  channel: string;
  assetId: number;
  customer: { destinationId: string; name: string };
  otherDetails: Record<string, unknown>;
  routeParams: Record<string, unknown>;
};

/**
 * The team (and skill) for a chat created without a team or assignee: the first enabled rule,
 * by position, whose conditions all hold; else the account's default team; else its oldest team.
 */
export async function chooseTeam(
  tx: Db,
  { accountId, facts }: { accountId: number; facts: RoutingFacts },
): Promise<{ teamId: number; skill: string | null }> {
  const rules = await tx
    .select()
    .from(routingRules)
    .where(and(eq(routingRules.accountId, accountId), eq(routingRules.enabled, true)))
    .orderBy(asc(routingRules.position), asc(routingRules.id));
  for (const rule of rules) {
    if (rule.conditions.every((c) => conditionHolds(c, facts))) return { teamId: rule.teamId, skill: rule.skill };
  }
  const [account] = await tx.select({ defaultTeamId: accounts.defaultTeamId }).from(accounts).where(eq(accounts.id, accountId));
  if (account?.defaultTeamId) return { teamId: account.defaultTeamId, skill: null };
  const [oldest] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.accountId, accountId)).orderBy(asc(teams.id)).limit(1);
  if (!oldest) throw new ApiError(2010, { detail: 'the account has no team to route the chat to' });
  return { teamId: oldest.id, skill: null };
}

function conditionHolds(c: RoutingCondition, facts: RoutingFacts): boolean {
  const actual = factOf(c.field, facts);
  if (actual === undefined || actual === null) return c.op === 'not_equals';
  const value = String(actual).toLowerCase();
  const expected = Array.isArray(c.value) ? c.value.map((v) => v.toLowerCase()) : c.value.toLowerCase();
  switch (c.op) {
    case 'equals':
      return value === expected;
    case 'not_equals':
      return value !== expected;
    case 'contains':
      return typeof expected === 'string' && value.includes(expected);
    case 'starts_with':
      return typeof expected === 'string' && value.startsWith(expected);
    case 'in':
      return Array.isArray(expected) ? expected.includes(value) : value === expected;
  }
}

function factOf(field: string, facts: RoutingFacts): unknown {
  if (field === 'channel') return facts.channel;
  if (field === 'asset_id') return facts.assetId;
  if (field === 'customer.destination_id') return facts.customer.destinationId;
  if (field === 'customer.name') return facts.customer.name;
  if (field.startsWith('other_details.')) return facts.otherDetails[field.slice('other_details.'.length)];
  if (field.startsWith('route_params.')) return facts.routeParams[field.slice('route_params.'.length)];
  return undefined;
}
