import { type SQL, sql } from 'drizzle-orm';
import type { ListAdminChatsQuery } from '@/contracts/admin/schemas/chat';
import type { Chat } from '@/contracts/bot/schemas/chat';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { type ChatFilters, listChats, pageAmongNewest } from '@/lib/chats/list-chats';
import { rowsOf } from '@/platform/util/rows-of';

/**
 * Above this many matching chats a search walks the list's own index instead of reading every
 * match. At 10,000 a term matching a small share of a large tenant (a destination fragment found
 * in 5,000 of 1,000,000 chats) is read by primary key and sorted (about 70 ms), where a walk along
 * the list would check row after row for a page (2.7 s); a broader term fills a page within a few
 * thousand rows of the walk.
 */
export const NARROW_SEARCH_LIMIT = 10_000;

/**
 * Up to this many matching chats are read by primary key and sorted without further thought (a
 * few milliseconds). Between it and NARROW_SEARCH_LIMIT the cheaper way depends on how common the
 * term is among the tenant's chats, so it is found by trying, as for a tag: when the newest
 * TAG_WALK_ROWS chats hold a page of matches, the walk finds it there (a surname on 10 % of a
 * 100,000-chat tenant: 10,000 matches, whose reading and sorting cost 40-55 ms, against a few
 * hundred rows of the walk).
 */
export const SURE_NARROW_SEARCH = 1_000;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The IDs of the chats `q` finds, by chat ID prefix, alias ID part, or customer destination ID or
 * name part (any case), at most `limit`; or one null ID when `q` finds `limit` customers or more,
 * which makes it a broad term whatever their chats (a common surname: 20,000 customers and 100,000
 * chats, which need not be read to know that). Each arm has its own index (pattern-ops btree on the
 * ID, trigram GIN on the others); a union lets the planner use each one where an `or` would read the
 * whole table, and `union all` stops reading at the limit (a chat found twice only counts twice).
 * The customers are found once (the `matched` CTE) and their chats read through
 * `chats_customer_idx` from one array (as a join, a common name made the planner read every chat).
 * Plain, aliased names: a relational query would rewrite column objects to its own table.
 */
export function matchingChatIds(accountId: number, q: string, limit: number) {
  const part = `%${escapeLike(q)}%`;
  const prefix = `${escapeLike(q.toLowerCase())}%`;
  return sql`with matched as materialized (
      select cu.id from customers cu where cu.account_id = ${accountId} and (cu.destination_id ilike ${part} or cu.name ilike ${part})
      limit ${limit})
    select null::text as id where (select count(*) from matched) >= ${limit}
    union all
    (select id from (
      select c.id from chats c where c.account_id = ${accountId} and c.id like ${prefix}
      union all
      select c.id from chats c where c.account_id = ${accountId} and c.alias_id ilike ${part}
      union all
      select c.id from chats c where c.account_id = ${accountId} and c.customer_id = any(array(select id from matched))
    ) m where (select count(*) from matched) < ${limit} limit ${limit})`;
}

/**
 * The same match as a condition on each chat of the list, for a broad `q` (many matches): the
 * list walks its index newest first and stops after a page, which a broad term fills quickly.
 */
function matchesChat(q: string): SQL {
  const part = `%${escapeLike(q)}%`;
  const prefix = `${escapeLike(q.toLowerCase())}%`;
  // A scalar subquery is run per row (one primary-key read of the customer); `exists` would be
  // planned as a hash of every matching customer, read before the first row.
  return sql`(${chats.id} like ${prefix} or ${chats.aliasId} ilike ${part} or coalesce((
    select cu.destination_id ilike ${part} or cu.name ilike ${part} from customers cu where cu.id = ${chats.customerId}), false))`;
}

/**
 * The list condition for `q`: a narrow term (up to SURE_NARROW_SEARCH chats, or up to
 * NARROW_SEARCH_LIMIT that the newest chats do not fill a page with) becomes the array of its chat
 * IDs, read by primary key and sorted; a broader one is checked row by row along the list index.
 */
export async function searchCondition(
  db: Db,
  { accountId, q, filters = {} }: { accountId: number; q: string; filters?: ChatFilters },
): Promise<{ also: SQL; few: boolean }> {
  const broad = { also: matchesChat(q), few: false };
  const ids = async (limit: number) => {
    const rows = rowsOf<{ id: string | null }>(await db.execute(matchingChatIds(accountId, q, limit + 1)));
    return rows.length > limit || rows.some((r) => r.id === null) ? null : (rows as { id: string }[]);
  };
  let rows = await ids(SURE_NARROW_SEARCH);
  if (!rows) {
    if (await pageAmongNewest(db, { accountId, filters }, broad.also)) return broad;
    rows = await ids(NARROW_SEARCH_LIMIT);
    if (!rows) return broad;
  }
  if (rows.length === 0) return { also: sql`false`, few: true };
  // One array parameter (a PostgreSQL array literal, each ID quoted), not one parameter per ID.
  const literal = `{${rows.map((r) => `"${r.id.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  return { also: sql`${chats.id} = any(${literal}::text[])`, few: true };
}

/**
 * The admin chat list: the bot list's filters plus `q`. Most recently updated first,
 * keyset-paginated on (updated_at, id) as the bot list is.
 */
export async function searchChats(
  db: Db,
  { accountId, query }: { accountId: number; query: ListAdminChatsQuery },
): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  const filters: ChatFilters = {
    status: query.status,
    channel: query.channel,
    teamId: query.team_id,
    tag: query.tag,
    assignee: query.assignee,
    pageSize: query.page_size,
    cursor: query.cursor,
  };
  return listChats(db, {
    accountId,
    ...(query.q ? await searchCondition(db, { accountId, q: query.q, filters }) : {}),
    filters,
  });
}
