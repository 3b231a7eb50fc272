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

/** The chat IDs among `ids` that are chats of the account, as a set (no query when there are none). */
export async function knownChatIds(db: Db, accountId: number, ids: (string | null)[]): Promise<Set<string>> {
  const named = [...new Set(ids.filter((c): c is string => c !== null))];
  if (!named.length) return new Set();
  return new Set((await chatsOfAccount(db, { accountId, ids: named })).map((c) => c.id));
}
