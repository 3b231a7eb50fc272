import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentLogins, agentSessions, teamMemberships, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';
import type { AgentAuth } from './types';

/**
 * Resolves the workspace cookie's token to its person, with their teams (one round trip): none, unknown, expired, or the user since
 * disabled (or turned into another kind): 2080.
 */
export async function authenticateAgent(db: Db, { token }: { token: string | undefined }): Promise<AgentAuth> {
  if (!token) throw new ApiError(2080);
  const [row] = await db
    .select({
      userId: users.id,
      accountId: users.accountId,
      loginId: users.loginId,
      email: agentLogins.email,
      kind: users.kind,
      teamIds: sql<
        number[]
      >`array(select ${teamMemberships.teamId} from ${teamMemberships} where ${teamMemberships.userId} = ${users.id} order by 1)`,
    })
    .from(agentSessions)
    .innerJoin(users, eq(users.id, agentSessions.userId))
    .innerJoin(agentLogins, eq(agentLogins.userId, users.id))
    .where(
      and(
        eq(agentSessions.tokenHash, sha256(token)),
        gt(agentSessions.expiresAt, new Date()),
        eq(users.enabled, true),
        inArray(users.kind, ['agent', 'manager']),
      ),
    );
  if (!row) throw new ApiError(2080, { detail: 'the session is unknown or has expired; sign in again' });
  return { ...row, kind: row.kind as AgentAuth['kind'] };
}
