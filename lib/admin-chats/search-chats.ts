import { and, arrayContains, desc, eq, ilike, inArray, like, lt, or, type SQL } from 'drizzle-orm';
import type { ListAdminChatsQuery } from '@/contracts/schemas/admin-chat';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats, customers, users } from '@/db/schema';
import { chatListWith, toChatView } from '@/lib/chats/chat-view';
import { decodeCursor, encodeCursor } from '@/lib/util/cursor';

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The admin chat list: the bot list's filters plus `q`, which finds a chat by its ID (or the start
 * of it), alias ID, or its customer's destination ID or name (any part, any case). Most recently
 * updated first, keyset-paginated on (updated_at, id) as the bot list is.
 */
export async function searchChats(
  db: Db,
  { accountId, query }: { accountId: number; query: ListAdminChatsQuery },
): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  const pageSize = query.page_size ?? 25;
  const where: SQL[] = [eq(chats.accountId, accountId)];
  if (query.status) where.push(eq(chats.status, query.status));
  if (query.channel) where.push(eq(chats.channel, query.channel));
  if (query.team_id) where.push(eq(chats.teamId, query.team_id));
  if (query.tag) where.push(arrayContains(chats.tags, [query.tag]));
  if (query.assignee) {
    const assignee = db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.loginId, query.assignee)));
    where.push(inArray(chats.assigneeId, assignee));
  }
  if (query.q) {
    const part = `%${escapeLike(query.q)}%`;
    const matchingCustomers = db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.accountId, accountId), or(ilike(customers.destinationId, part), ilike(customers.name, part))));
    where.push(
      or(
        like(chats.id, `${escapeLike(query.q.toLowerCase())}%`),
        ilike(chats.aliasId, part),
        inArray(chats.customerId, matchingCustomers),
      )!,
    );
  }
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, (p): p is [string, string] => p.length === 2 && p.every((x) => typeof x === 'string'));
    const atDate = new Date(at);
    where.push(or(lt(chats.updatedAt, atDate), and(eq(chats.updatedAt, atDate), lt(chats.id, id)))!);
  }
  const rows = await db.query.chats.findMany({
    where: and(...where),
    orderBy: [desc(chats.updatedAt), desc(chats.id)],
    limit: pageSize + 1,
    with: chatListWith,
  });
  const page = rows.slice(0, pageSize).map(toChatView);
  const last = page.at(-1);
  return { chats: page, nextCursor: rows.length > pageSize && last ? encodeCursor([last.updated_at, last.chat_id]) : null };
}
