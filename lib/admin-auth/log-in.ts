import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { adminSessions, admins } from '@/db/schema';
import { env } from '@/env';
import { hashPassword, verifyPassword } from '@/platform/auth/passwords';
import { ApiError } from '@/platform/errors';
import { randomToken, sha256 } from '@/platform/util/ids';
import { admitLoginAttempt, recordLoginFailure, recordLoginSuccess } from './login-throttle';

let dummyHash: Promise<string> | undefined;

/**
 * Checks an administrator's email and password and opens a session. Only the token's hash is
 * stored; the caller hands the token to the client in the session cookie. An unknown email costs
 * a password check too, so the answer time does not tell which emails exist. Attempts are
 * throttled per account and per client address (login-throttle.ts) before the password is checked.
 */
export async function logIn(db: Db, { email, password, clientAddress }: { email: string; password: string; clientAddress: string }) {
  const attempt = await admitLoginAttempt({ email, clientAddress });
  dummyHash ??= hashPassword(randomToken(16));
  const [admin] = await db
    .select({ id: admins.id, passwordHash: admins.passwordHash })
    .from(admins)
    .where(eq(admins.email, email.trim().toLowerCase()));
  const valid = await verifyPassword(password, admin?.passwordHash ?? (await dummyHash));
  if (!admin || !valid) {
    await recordLoginFailure(attempt);
    throw new ApiError(3002);
  }
  await recordLoginSuccess(attempt);

  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + env().ADMIN_SESSION_TTL_SECONDS * 1000);
  await db.transaction(async (tx) => {
    // The admin's expired sessions are swept as new ones open, so the table stays small.
    await tx.delete(adminSessions).where(and(eq(adminSessions.adminId, admin.id), lt(adminSessions.expiresAt, new Date())));
    await tx.insert(adminSessions).values({ tokenHash: sha256(token), adminId: admin.id, expiresAt });
  });
  return { token, adminId: admin.id, expiresAt };
}
