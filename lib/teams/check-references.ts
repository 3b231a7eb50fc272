import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { skills, teams } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/**
 * Checks for IDs and names an admin request refers to. Each failure names the request field, so
 * an admin page can put the message beside the right input.
 */
export async function requireAccountTeam(tx: Db, { accountId, teamId, field }: { accountId: number; teamId: number; field: string }) {
  const [team] = await tx
    .select()
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)));
  if (!team) throw new ApiError(3006, { detail: `no team ${teamId}`, errors: [{ field, message: 'no such team' }] });
  return team;
}

export async function requireAccountTeams(tx: Db, { accountId, teamIds, field }: { accountId: number; teamIds: number[]; field: string }) {
  const ids = [...new Set(teamIds)];
  if (!ids.length) return ids;
  const found = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.accountId, accountId), inArray(teams.id, ids)));
  missing(ids, found, 'team', field);
  return ids;
}

export async function requireAccountSkills(
  tx: Db,
  { accountId, skillIds, field }: { accountId: number; skillIds: number[]; field: string },
) {
  const ids = [...new Set(skillIds)];
  if (!ids.length) return ids;
  const found = await tx
    .select({ id: skills.id })
    .from(skills)
    .where(and(eq(skills.accountId, accountId), inArray(skills.id, ids)));
  missing(ids, found, 'skill', field);
  return ids;
}

/** Skill IDs for skill names of one team; an unknown name is 2034, naming its position. */
export async function resolveSkillNames(tx: Db, { teamId, names, field }: { teamId: number; names: string[]; field: string }) {
  if (!names.length) return [];
  const found = await tx
    .select({ id: skills.id, name: skills.name })
    .from(skills)
    .where(and(eq(skills.teamId, teamId), inArray(skills.name, names)));
  const byName = new Map(found.map((s) => [s.name, s.id]));
  const errors = names.flatMap((n, i) => (byName.has(n) ? [] : [{ field: `${field}.${i}`, message: `no skill "${n}" in team ${teamId}` }]));
  if (errors.length) throw new ApiError(2034, { detail: errors.map((e) => e.message).join('; '), errors });
  return [...new Set(names.map((n) => byName.get(n)!))];
}

function missing(ids: number[], found: { id: number }[], what: string, field: string) {
  const have = new Set(found.map((r) => r.id));
  const absent = ids.filter((id) => !have.has(id));
  if (absent.length) {
    throw new ApiError(3006, {
      detail: `no ${what} ${absent.join(', ')}`,
      errors: absent.map((id) => ({ field, message: `no ${what} ${id}` })),
    });
  }
}
