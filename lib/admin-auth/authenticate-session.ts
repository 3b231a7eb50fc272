import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { adminSessions, admins } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';
import type { AdminAuth } from './types';

/** Resolves the session cookie's token to its administrator; none, unknown or expired: 3001. */
export async function authenticateSession(db: Db, { token }: { token: string | undefined }): Promise<AdminAuth> {
  if (!token) throw new ApiError(3001);
  const [row] = await db
    .select({ adminId: admins.id, accountId: admins.accountId, email: admins.email, isPlatformAdmin: admins.isPlatformAdmin })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .where(and(eq(adminSessions.tokenHash, sha256(token)), gt(adminSessions.expiresAt, new Date())));
  if (!row) throw new ApiError(3001, { detail: 'the session is unknown or has expired; sign in again' });
  return row;
}
