import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { AdminTeam } from '@/contracts/admin/schemas/team';
import type { Db } from '@/db/client';
import { skills, teamMemberships, teams, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** The account's teams as the admin API shows them: skills and member counts by kind. */
export async function loadTeams(db: Db, { accountId, teamIds }: { accountId: number; teamIds?: number[] }): Promise<AdminTeam[]> {
  const where: SQL[] = [eq(teams.accountId, accountId)];
  if (teamIds) where.push(inArray(teams.id, teamIds));
  const rows = await db.query.teams.findMany({
    where: and(...where),
    orderBy: [asc(teams.id)],
    with: { skills: { columns: { id: true, name: true }, orderBy: [asc(skills.name)] } },
  });
  if (!rows.length) return [];
  const counts = await db
    .select({ teamId: teamMemberships.teamId, kind: users.kind, n: count() })
    .from(teamMemberships)
    .innerJoin(users, eq(users.id, teamMemberships.userId))
    .where(
      and(
        eq(users.accountId, accountId),
        inArray(
          teamMemberships.teamId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .groupBy(teamMemberships.teamId, users.kind);
  return rows.map((t) => {
    const member_counts = { agent: 0, manager: 0, virtual_agent: 0, total: 0 };
    for (const c of counts) {
      if (c.teamId !== t.id) continue;
      member_counts[c.kind] += Number(c.n);
      member_counts.total += Number(c.n);
    }
    return {
      id: t.id,
      name: t.name,
      auto_assign: t.autoAssign,
      skills: t.skills,
      member_counts,
      created_at: t.createdAt.toISOString(),
      updated_at: t.updatedAt.toISOString(),
    };
  });
}

export async function loadTeamOrFail(db: Db, { accountId, teamId }: { accountId: number; teamId: number }): Promise<AdminTeam> {
  const [team] = await loadTeams(db, { accountId, teamIds: [teamId] });
  if (!team) throw new ApiError(3006, { detail: `no team ${teamId}` });
  return team;
}
