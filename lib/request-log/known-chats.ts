import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';

/**
 * Which of these chat IDs are chats of the account (a probe of a chat ID index per ID). A logged
 * call names the chat ID the bot sent, which may be no chat at all (a 2031) or another account's;
 * the console links only to chats it can show.
 */
export function chatsOfAccount(db: Db, { accountId, ids }: { accountId: number; ids: string[] }) {
  return db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.accountId, accountId), inArray(chats.id, ids)));
}

/**
 * For the chat IDs of some logged calls: a function giving back a call's chat ID when it is a chat
 * of the account, else null (one query for all of them, none when no call names a chat).
 */
export async function accountChats(db: Db, accountId: number, ids: (string | null)[]): Promise<(id: string | null) => string | null> {
  const named = [...new Set(ids.filter((c): c is string => c !== null))];
  const known = new Set(named.length ? (await chatsOfAccount(db, { accountId, ids: named })).map((c) => c.id) : []);
  return (id) => (id !== null && known.has(id) ? id : null);
}
