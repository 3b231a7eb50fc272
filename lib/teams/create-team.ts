import type { Db } from '@/db/client';
import { skills, teams } from '@/db/schema';
import { ApiError } from '@/platform/errors';

export async function createTeam(
  db: Db,
  {
    accountId,
    name,
    autoAssign = false,
    skillNames = [],
  }: { accountId: number; name: string; autoAssign?: boolean; skillNames?: string[] },
) {
  return db.transaction(async (tx) => {
    const [team] = await tx.insert(teams).values({ accountId, name, autoAssign }).onConflictDoNothing().returning();
    if (!team) throw new ApiError(3004, { detail: `team "${name}"`, errors: [{ field: 'name', message: 'already in use' }] });
    if (skillNames.length) {
      await tx.insert(skills).values([...new Set(skillNames)].map((n) => ({ accountId, teamId: team.id, name: n })));
    }
    return team;
  });
}
