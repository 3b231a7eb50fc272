import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { agentDirectorySchema } from '@/contracts/agent/schemas';
import type { Db } from '@/db/client';
import { skills, teams, users } from '@/db/schema';

export type AgentDirectory = z.infer<typeof agentDirectorySchema>;

/** Where a person can transfer a chat: the account's teams with their skills, and its enabled people and virtual agents. */
export async function listDirectory(db: Db, { accountId }: { accountId: number }): Promise<AgentDirectory> {
  const [teamRows, skillRows, userRows] = await Promise.all([
    db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.accountId, accountId)).orderBy(asc(teams.name)),
    db.select({ teamId: skills.teamId, name: skills.name }).from(skills).where(eq(skills.accountId, accountId)).orderBy(asc(skills.name)),
    db
      .select({ loginId: users.loginId, name: users.name, kind: users.kind })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.enabled, true)))
      .orderBy(asc(users.name))
      .limit(500),
  ]);
  return {
    teams: teamRows.map((t) => ({ ...t, skills: skillRows.filter((s) => s.teamId === t.id).map((s) => s.name) })),
    users: userRows.map((u) => ({ login_id: u.loginId, name: u.name, kind: u.kind })),
  };
}
