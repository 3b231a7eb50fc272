import { asc, eq, inArray, isNull } from 'drizzle-orm';
import type { AdminAccount } from '@/contracts/admin/schemas/account';
import type { Db } from '@/db/client';
import { accounts, admins } from '@/db/schema';

/** Every account (`accountId` omitted: platform administrators), or only the one given. */
export async function listAccounts(db: Db, { accountId }: { accountId?: number }): Promise<AdminAccount[]> {
  const rows = await db
    .select()
    .from(accounts)
    .where(accountId === undefined ? isNull(accounts.sandboxOfAccountId) : eq(accounts.id, accountId))
    .orderBy(asc(accounts.id));
  if (!rows.length) return [];
  const adminRows = await db
    .select({ accountId: admins.accountId, email: admins.email, isPlatformAdmin: admins.isPlatformAdmin })
    .from(admins)
    .where(
      inArray(
        admins.accountId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(admins.id));
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    default_team_id: a.defaultTeamId,
    transfer_enabled: a.transferEnabled,
    created_at: a.createdAt.toISOString(),
    admins: adminRows.filter((r) => r.accountId === a.id).map((r) => ({ email: r.email, is_platform_admin: r.isPlatformAdmin })),
  }));
}
