import { and, eq, gt } from 'drizzle-orm';
import type { AdminProfile } from '@/contracts/admin/schemas/session';
import type { Db } from '@/db/client';
import { accounts, adminSessions, admins } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';

/** The administrator behind a session token, with their account, for `/me` and the login answer. */
export async function getCurrentAdmin(db: Db, { token }: { token: string }): Promise<AdminProfile> {
  const [row] = await db
    .select({
      email: admins.email,
      isPlatformAdmin: admins.isPlatformAdmin,
      accountId: accounts.id,
      accountName: accounts.name,
      defaultTeamId: accounts.defaultTeamId,
      transferEnabled: accounts.transferEnabled,
      expiresAt: adminSessions.expiresAt,
    })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .innerJoin(accounts, eq(accounts.id, admins.accountId))
    .where(and(eq(adminSessions.tokenHash, sha256(token)), gt(adminSessions.expiresAt, new Date())));
  if (!row) throw new ApiError(3001);
  return {
    email: row.email,
    is_platform_admin: row.isPlatformAdmin,
    account: { id: row.accountId, name: row.accountName, default_team_id: row.defaultTeamId, transfer_enabled: row.transferEnabled },
    session_expires_at: row.expiresAt.toISOString(),
  };
}
