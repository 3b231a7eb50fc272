import { and, eq } from 'drizzle-orm';
import type { AdminUser, UpdateUserBody } from '@/contracts/admin/schemas/user';
import type { Db } from '@/db/client';
import { teamMemberships, userSkills, users } from '@/db/schema';
import { fillFreeSeats } from '@/lib/chats/auto-assign';
import { withOutbox } from '@/lib/events/with-outbox';
import { requireAccountSkills, requireAccountTeams } from '@/lib/teams/check-references';
import { ApiError } from '@/platform/errors';
import { isUniqueViolation } from '@/platform/util/is-unique-violation';
import { loadUserOrFail } from './user-view';

/** PATCH /api/admin/users/{id} for agents and managers; lists sent replace the current ones. */
export async function updateUser(
  db: Db,
  { accountId, userId, patch }: { accountId: number; userId: number; patch: UpdateUserBody },
): Promise<AdminUser> {
  for (const field of ['login_id', 'kind'] as const) {
    if (patch[field] !== undefined)
      throw new ApiError(3005, { detail: field, errors: [{ field, message: 'cannot be changed after creation' }] });
  }
  await withOutbox(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, kind: users.kind })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.accountId, accountId)))
      .for('update');
    if (!user) throw new ApiError(3006, { detail: `no user ${userId}` });
    if (user.kind === 'virtual_agent') {
      throw new ApiError(3008, { detail: `user ${userId} is a virtual agent; change it at /api/admin/virtual-agents/${userId}` });
    }
    if (patch.team_ids !== undefined) {
      const teamIds = await requireAccountTeams(tx, { accountId, teamIds: patch.team_ids, field: 'team_ids' });
      await tx.delete(teamMemberships).where(eq(teamMemberships.userId, userId));
      if (teamIds.length) await tx.insert(teamMemberships).values(teamIds.map((teamId) => ({ teamId, userId })));
    }
    if (patch.skill_ids !== undefined) {
      const skillIds = await requireAccountSkills(tx, { accountId, skillIds: patch.skill_ids, field: 'skill_ids' });
      await tx.delete(userSkills).where(eq(userSkills.userId, userId));
      if (skillIds.length) await tx.insert(userSkills).values(skillIds.map((skillId) => ({ userId, skillId })));
    }
    const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.email !== undefined) set.email = patch.email;
    if (patch.availability !== undefined) set.availability = patch.availability;
    if (patch.capacity !== undefined) set.capacity = patch.capacity;
    if (patch.custom_attributes !== undefined) set.customAttributes = patch.custom_attributes;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    try {
      await tx.update(users).set(set).where(eq(users.id, userId));
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ApiError(3004, { detail: `name "${patch.name}"`, errors: [{ field: 'name', message: 'already in use' }] });
      throw err;
    }
    // Available again, more capacity, new teams or skills: queued chats may now fit.
    await fillFreeSeats(tx, { accountId, userId });
  });
  return loadUserOrFail(db, { accountId, userId });
}
