import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { AdminUser } from '@/contracts/admin/schemas/user';
import type { UserKind } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** The account's users with their teams and skills, as the admin API shows them. */
export async function loadUsers(
  db: Db,
  { accountId, kind, userIds }: { accountId: number; kind?: UserKind; userIds?: number[] },
): Promise<AdminUser[]> {
  const where: SQL[] = [eq(users.accountId, accountId)];
  if (kind) where.push(eq(users.kind, kind));
  if (userIds) where.push(inArray(users.id, userIds));
  const rows = await db.query.users.findMany({
    where: and(...where),
    orderBy: [asc(users.kind), asc(users.name), asc(users.id)],
    with: {
      memberships: { columns: { teamId: true } },
      skills: { with: { skill: { columns: { id: true, name: true, teamId: true } } } },
    },
  });
  return rows.map((u) => ({
    id: u.id,
    kind: u.kind,
    login_id: u.loginId,
    name: u.name,
    email: u.email,
    availability: u.availability,
    capacity: u.capacity,
    enabled: u.enabled,
    team_ids: u.memberships.map((m) => m.teamId).sort((a, b) => a - b),
    skills: u.skills
      .map((s) => ({ id: s.skill.id, name: s.skill.name, team_id: s.skill.teamId }))
      .sort((a, b) => a.team_id - b.team_id || a.name.localeCompare(b.name)),
    custom_attributes: u.customAttributes,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  }));
}

export async function loadUserOrFail(db: Db, { accountId, userId }: { accountId: number; userId: number }): Promise<AdminUser> {
  const [user] = await loadUsers(db, { accountId, userIds: [userId] });
  if (!user) throw new ApiError(3006, { detail: `no user ${userId}` });
  return user;
}
