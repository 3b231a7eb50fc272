import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentLogins, agentSessions } from '@/db/schema';
import { passwordProblem } from '@/platform/auth/password-policy';
import { hashPassword } from '@/platform/auth/passwords';
import { ApiError } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';
import { openAgentSession } from './open-agent-session';

/**
 * The invite link's page sends its token and the chosen password: the password is set, the token
 * is spent (a second use is 2082, like an unknown or expired one), the person's other sessions end
 * and a new one opens. A weak password is 3009 and leaves the invite usable.
 */
export async function acceptInvite(db: Db, { token, password }: { token: string; password: string }) {
  const tokenHash = sha256(token);
  const [invite] = await db
    .select({ userId: agentLogins.userId, accountId: agentLogins.accountId, email: agentLogins.email })
    .from(agentLogins)
    .where(and(eq(agentLogins.inviteTokenHash, tokenHash), gt(agentLogins.inviteExpiresAt, new Date())));
  if (!invite) throw new ApiError(2082);
  const problem = passwordProblem(password, [invite.email]);
  if (problem) throw new ApiError(3009, { detail: `password ${problem}`, errors: [{ field: 'password', message: problem }] });
  const passwordHash = await hashPassword(password);
  const spent = await db.transaction(async (tx) => {
    // Spent under the row's own condition: of two uses racing, one updates the row.
    const rows = await tx
      .update(agentLogins)
      .set({ passwordHash, inviteTokenHash: null, inviteExpiresAt: null, updatedAt: new Date() })
      .where(and(eq(agentLogins.inviteTokenHash, tokenHash), gt(agentLogins.inviteExpiresAt, new Date())))
      .returning({ userId: agentLogins.userId });
    if (!rows.length) return false;
    await tx.delete(agentSessions).where(eq(agentSessions.userId, invite.userId));
    return true;
  });
  if (!spent) throw new ApiError(2082);
  return { userId: invite.userId, accountId: invite.accountId, ...(await openAgentSession(db, { userId: invite.userId })) };
}
