import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentLogins, users } from '@/db/schema';
import { admitLoginAttempt, recordLoginFailure, recordLoginSuccess } from '@/lib/admin-auth/login-throttle';
import { hashPassword, verifyPassword } from '@/platform/auth/passwords';
import { ApiError } from '@/platform/errors';
import { randomToken } from '@/platform/util/ids';
import { openAgentSession } from './open-agent-session';

let dummyHash: Promise<string> | undefined;

/**
 * A person signs in to the workspace with their email and password. The console's throttle holds
 * (per email and per client address, growing waits after ADMIN_LOGIN_FREE_FAILURES); an unknown
 * email, a person without a password yet, a disabled user and a wrong password all answer 2081
 * after the same password check, so the answer does not tell which emails exist.
 */
export async function logInAgent(db: Db, { email, password, clientAddress }: { email: string; password: string; clientAddress: string }) {
  const normalised = email.trim().toLowerCase();
  const attempt = await admitLoginAttempt({ email: `agent:${normalised}`, clientAddress });
  dummyHash ??= hashPassword(randomToken(16));
  const [row] = await db
    .select({ userId: agentLogins.userId, accountId: agentLogins.accountId, passwordHash: agentLogins.passwordHash })
    .from(agentLogins)
    .innerJoin(users, eq(users.id, agentLogins.userId))
    .where(and(eq(agentLogins.email, normalised), eq(users.enabled, true), inArray(users.kind, ['agent', 'manager'])));
  const valid = await verifyPassword(password, row?.passwordHash ?? (await dummyHash));
  if (!row?.passwordHash || !valid) {
    await recordLoginFailure(attempt);
    throw new ApiError(2081);
  }
  await recordLoginSuccess(attempt);
  return { userId: row.userId, accountId: row.accountId, ...(await openAgentSession(db, { userId: row.userId })) };
}
