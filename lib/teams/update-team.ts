import { and, eq } from 'drizzle-orm';
import type { AdminTeam, UpdateTeamBody } from '@/contracts/schemas/admin-team';
import type { Db } from '@/db/client';
import { teams } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { isUniqueViolation } from '@/lib/util/is-unique-violation';
import { loadTeamOrFail } from './team-view';

export async function updateTeam(
  db: Db,
  { accountId, teamId, patch }: { accountId: number; teamId: number; patch: UpdateTeamBody },
): Promise<AdminTeam> {
  const set: Partial<typeof teams.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.auto_assign !== undefined) set.autoAssign = patch.auto_assign;
  let updated: { id: number }[];
  try {
    updated = await db
      .update(teams)
      .set(set)
      .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)))
      .returning({ id: teams.id });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(3004, { detail: `team "${patch.name}"`, errors: [{ field: 'name', message: 'already in use' }] });
    throw err;
  }
  if (!updated.length) throw new ApiError(3006, { detail: `no team ${teamId}` });
  return loadTeamOrFail(db, { accountId, teamId });
}
