import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** The bot API's transfer operation runs only for accounts with the setting on (2042 otherwise). */
export async function requireTransferEnabled(db: Db, { accountId }: { accountId: number }): Promise<void> {
  const [account] = await db.select({ on: accounts.transferEnabled }).from(accounts).where(eq(accounts.id, accountId));
  if (!account?.on) throw new ApiError(2042);
}

/**
 * Turns an account's transfer setting on or off. The caller checks that a platform administrator
 * asks: an account's own administrators cannot change it. 3006 when there is no such account.
 */
export async function setTransferEnabled(db: Db, { accountId, enabled }: { accountId: number; enabled: boolean }): Promise<void> {
  const updated = await db
    .update(accounts)
    .set({ transferEnabled: enabled, updatedAt: new Date() })
    .where(eq(accounts.id, accountId))
    .returning({ id: accounts.id });
  if (!updated.length) throw new ApiError(3006, { detail: `no account ${accountId}` });
}
