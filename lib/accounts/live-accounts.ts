import { and, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts } from '@/db/schema';

/**
 * How many of `accountIds` (one entry per counted thing, repeats allowed) are live accounts, not
 * replay sandboxes: what a live metric may count. An account is a sandbox for its whole life, so
 * the answer for an id is kept in the process.
 */
const known = new Map<number, boolean>();
export async function countLive(db: Db, accountIds: number[]): Promise<number> {
  const unknown = [...new Set(accountIds.filter((id) => !known.has(id)))];
  if (unknown.length) {
    for (const id of unknown) known.set(id, false);
    const sandboxes = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(inArray(accounts.id, unknown), isNotNull(accounts.sandboxOfAccountId)));
    for (const s of sandboxes) known.set(s.id, true);
  }
  return accountIds.filter((id) => !known.get(id)).length;
}
