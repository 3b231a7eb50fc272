import { asc, eq } from 'drizzle-orm';
import type { AdminSkill } from '@/contracts/admin/schemas/team';
import type { Db } from '@/db/client';
import { skills, teams } from '@/db/schema';

export async function listSkills(db: Db, { accountId }: { accountId: number }): Promise<AdminSkill[]> {
  return db
    .select({ id: skills.id, name: skills.name, team_id: teams.id, team_name: teams.name })
    .from(skills)
    .innerJoin(teams, eq(teams.id, skills.teamId))
    .where(eq(skills.accountId, accountId))
    .orderBy(asc(teams.name), asc(skills.name));
}
