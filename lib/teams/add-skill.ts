import type { AdminSkill } from '@/contracts/admin/schemas/team';
import type { Db } from '@/db/client';
import { skills } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { requireAccountTeam } from './check-references';

export async function addSkill(
  db: Db,
  { accountId, teamId, name }: { accountId: number; teamId: number; name: string },
): Promise<AdminSkill> {
  return db.transaction(async (tx) => {
    const team = await requireAccountTeam(tx, { accountId, teamId, field: 'path.id' });
    const [skill] = await tx.insert(skills).values({ accountId, teamId, name }).onConflictDoNothing().returning();
    if (!skill)
      throw new ApiError(3004, {
        detail: `skill "${name}" in team ${team.name}`,
        errors: [{ field: 'name', message: 'already in use in this team' }],
      });
    return { id: skill.id, name: skill.name, team_id: team.id, team_name: team.name };
  });
}
