import { eq } from 'drizzle-orm';
import type { Me } from '@/contracts/bot/schemas/me';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { teams, users, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** GET /me: the calling VA as a bot needs to know itself (its token already proved it exists). */
export async function getMe(db: Db, { accountId, userId }: { accountId: number; userId: number }): Promise<Me> {
  const [row] = await db
    .select({
      loginId: users.loginId,
      name: users.name,
      accountId: users.accountId,
      description: virtualAgents.description,
      teamId: virtualAgents.teamId,
      teamName: teams.name,
      subscriptions: virtualAgents.subscriptions,
      fallbackTeamId: virtualAgents.fallbackTeamId,
    })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .innerJoin(teams, eq(teams.id, virtualAgents.teamId))
    .where(eq(virtualAgents.userId, userId));
  if (!row || row.accountId !== accountId) throw new ApiError(2003);
  return {
    login_id: row.loginId,
    name: row.name,
    description: row.description,
    team_id: row.teamId,
    team_name: row.teamName,
    subscriptions: row.subscriptions as EventType[],
    fallback_team_id: row.fallbackTeamId,
  };
}
