import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AdminTeam, UpdateTeamBody } from '@/contracts/admin/schemas/team';
import type { Db } from '@/db/client';
import { chats, teams } from '@/db/schema';
import { assignQueuedChat } from '@/lib/chats/auto-assign';
import { type OutboxTx, withOutbox } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { isUniqueViolation } from '@/platform/util/is-unique-violation';
import { loadTeamOrFail } from './team-view';

/** Most waiting chats one switch-on offers; the rest are taken as seats free. */
const PICKUP_LIMIT = 1000;

/**
 * Renames a team or switches its auto-assign. Switching auto-assign on offers the chats already
 * waiting in the team's queue, oldest first, to its ready members at once (as a new chat would be),
 * in the same transaction, so they do not wait for an unrelated seat to free.
 */
export async function updateTeam(
  db: Db,
  { accountId, teamId, patch }: { accountId: number; teamId: number; patch: UpdateTeamBody },
): Promise<AdminTeam> {
  const set: Partial<typeof teams.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.auto_assign !== undefined) set.autoAssign = patch.auto_assign;
  try {
    await withOutbox(db, async (tx) => {
      const [before] = await tx
        .select({ autoAssign: teams.autoAssign })
        .from(teams)
        .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)))
        .for('update');
      if (!before) throw new ApiError(3006, { detail: `no team ${teamId}` });
      await tx.update(teams).set(set).where(eq(teams.id, teamId));
      if (patch.auto_assign === true && !before.autoAssign) await offerQueue(tx, { accountId, teamId });
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(3004, { detail: `team "${patch.name}"`, errors: [{ field: 'name', message: 'already in use' }] });
    throw err;
  }
  return loadTeamOrFail(db, { accountId, teamId });
}

/**
 * Hands the team's queued, unassigned chats to ready members, oldest first. Chats another
 * transaction is changing are skipped, not waited for. Stops once a chat that needs no skill finds
 * nobody: every member is then full, and later chats would find nobody either.
 */
async function offerQueue(tx: OutboxTx, { accountId, teamId }: { accountId: number; teamId: number }): Promise<void> {
  const queued = await tx
    .select({ id: chats.id, skill: chats.skill })
    .from(chats)
    .where(and(eq(chats.teamId, teamId), eq(chats.status, 'queued'), isNull(chats.assigneeId), eq(chats.accountId, accountId)))
    .orderBy(asc(chats.createdAt), asc(chats.id))
    .limit(PICKUP_LIMIT)
    .for('update', { skipLocked: true });
  for (const chat of queued) {
    const auto = await assignQueuedChat(tx, { accountId, chatId: chat.id, teamId, skill: chat.skill });
    if (!auto && chat.skill === null) break;
  }
}
