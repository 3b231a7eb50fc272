import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { skills, teams } from '@/db/schema';

export async function listTeams(db: Db, { accountId }: { accountId: number }) {
  const rows = await db.query.teams.findMany({
    where: eq(teams.accountId, accountId),
    orderBy: [asc(teams.id)],
    with: { skills: { columns: { name: true }, orderBy: [asc(skills.name)] } },
  });
  return rows.map((t) => ({ team_id: t.id, team_name: t.name, auto_assign: t.autoAssign, skills: t.skills.map((s) => s.name) }));
}
