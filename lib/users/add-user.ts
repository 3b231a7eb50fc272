import type { AdminUser, CreateUserBody } from '@/contracts/admin/schemas/user';
import type { Db } from '@/db/client';
import { requireAccountSkills, requireAccountTeams } from '@/lib/teams/check-references';
import { createUser } from './create-user';
import { loadUserOrFail } from './user-view';

/** POST /api/admin/users: an agent or manager, after checking its team and skill IDs are the account's. */
export async function addUser(db: Db, { accountId, body }: { accountId: number; body: CreateUserBody }): Promise<AdminUser> {
  const user = await db.transaction(async (tx) => {
    const teamIds = await requireAccountTeams(tx, { accountId, teamIds: body.team_ids ?? [], field: 'team_ids' });
    const skillIds = await requireAccountSkills(tx, { accountId, skillIds: body.skill_ids ?? [], field: 'skill_ids' });
    return createUser(tx, {
      accountId,
      kind: body.kind,
      loginId: body.login_id,
      name: body.name,
      email: body.email,
      availability: body.availability,
      capacity: body.capacity,
      teamIds,
      skillIds,
      customAttributes: body.custom_attributes,
    });
  });
  return loadUserOrFail(db, { accountId, userId: user.id });
}
