import { and, eq, ilike, inArray, like, or } from 'drizzle-orm';
import type { ListAdminChatsQuery } from '@/contracts/schemas/admin-chat';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats, customers } from '@/db/schema';
import { listChats } from '@/lib/chats/list-chats';

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
  let also: ReturnType<typeof or>;
  if (query.q) {
    const part = `%${escapeLike(query.q)}%`;
    const matchingCustomers = db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.accountId, accountId), or(ilike(customers.destinationId, part), ilike(customers.name, part))));
    also = or(
      like(chats.id, `${escapeLike(query.q.toLowerCase())}%`),
      ilike(chats.aliasId, part),
      inArray(chats.customerId, matchingCustomers),
    );
  }
  return listChats(db, {
    accountId,
    also,
    filters: {
      status: query.status,
      channel: query.channel,
      teamId: query.team_id,
      tag: query.tag,
      assignee: query.assignee,
      pageSize: query.page_size,
      cursor: query.cursor,
    },
  });
}
