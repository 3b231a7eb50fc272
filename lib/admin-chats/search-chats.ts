import { sql } from 'drizzle-orm';
import type { ListAdminChatsQuery } from '@/contracts/schemas/admin-chat';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { listChats } from '@/lib/chats/list-chats';

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The chats `q` finds: by chat ID prefix, alias ID part, or customer destination ID or name part
 * (any case). Each arm has its own index (pattern-ops btree on the ID, trigram GIN on the others),
 * and a union of the three lets the planner use each one; an `or` across them would read the
 * whole table. Parts shorter than three characters have no trigrams, so the GIN indexes cannot
 * narrow them much.
 */
export function chatsMatching(accountId: number, q: string) {
  const part = `%${escapeLike(q)}%`;
  const prefix = `${escapeLike(q.toLowerCase())}%`;
  // Plain names with aliases: the relational list query would rewrite column objects to its own chats table.
  return sql`${chats.id} in (
    select c.id from chats c where c.account_id = ${accountId} and c.id like ${prefix}
    union
    select c.id from chats c where c.account_id = ${accountId} and c.alias_id ilike ${part}
    union
    select c.id from chats c join customers cu on cu.id = c.customer_id
      where cu.account_id = ${accountId} and c.account_id = ${accountId} and (cu.destination_id ilike ${part} or cu.name ilike ${part})
  )`;
}

/**
 * The admin chat list: the bot list's filters plus `q`. Most recently updated first,
 * keyset-paginated on (updated_at, id) as the bot list is.
 */
export async function searchChats(
  db: Db,
  { accountId, query }: { accountId: number; query: ListAdminChatsQuery },
): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  return listChats(db, {
    accountId,
    also: query.q ? chatsMatching(accountId, query.q) : undefined,
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
