import { and, arrayContains, count, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Chat } from '@/contracts/bot/schemas/chat';
import type { Channel, ChatStatus } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';
import { rowsOf } from '@/platform/util/rows-of';
import { chatListWith, toChatView } from './chat-view';

export type ChatFilters = {
  status?: ChatStatus;
  channel?: Channel;
  assignee?: string;
  tag?: string;
  teamId?: number;
  updatedSince?: string;
  pageSize?: number;
  cursor?: string;
};

/**
 * `also` narrows the list further (the admin search adds its text match there); `few` says it
 * leaves at most a few thousand chats (a list of IDs), which are then read by primary key and sorted.
 */
type ListOptions = { accountId: number; filters: ChatFilters; also?: SQL; few?: boolean };

/**
 * A tag's index cannot give the list's order, so a tag filter is served one of two ways. Where the
 * tag is common, the list's index is walked newest first and each chat checked (a tag on 5 % of
 * chats: about 500 rows for a page). Where it is rare, that walk checks row after row (a tag on 1
 * chat in 1,000: 26,000 rows; a tag nobody has: every chat of the account, past the statement
 * timeout), and reading its chats through the tags index and sorting them costs one row a match.
 * Which one is found by trying: the newest TAG_WALK_ROWS chats are checked for a page; when they
 * hold none, the tag's chats are counted up to FEW_TAGGED_LIMIT through its index; when there are
 * more, the walk goes on. Walk and sort meet near the square root of 26 times the tenant's chats:
 * about 5,000 at a million.
 */
const TAG_WALK_ROWS = 2_000;
const FEW_TAGGED_LIMIT = 5_000;

/** The account's chats, most recently updated first, with keyset pagination on (updated_at, id). */
export async function listChats(db: Db, options: ListOptions): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  const { filters } = options;
  const pageSize = filters.pageSize ?? 25;
  const few = options.few ?? (filters.tag ? await fewTagged(db, options) : false);
  const rows = await listChatsQuery(db, { ...options, few });
  const page = rows.slice(0, pageSize).map(toChatView);
  const last = page.at(-1);
  return { chats: page, nextCursor: rows.length > pageSize && last ? encodeCursor([last.updated_at, last.chat_id]) : null };
}

/** Whether a tag filter's page is best read through the tags index (see TAG_WALK_ROWS). */
export async function fewTagged(db: Db, options: ListOptions): Promise<boolean> {
  return !(await pageAmongNewest(db, options)) && (await fewMatches(db, options, FEW_TAGGED_LIMIT));
}

/**
 * Whether the newest TAG_WALK_ROWS chats of the list hold a page that meets the list's tag, if
 * any, and `check` (written on the chats table's columns): if so, walking the list and checking
 * each row finds the page soon. The tag is checked on the walk's rows, not walked to (a rare tag
 * would make the walk itself long).
 */
export async function pageAmongNewest(db: Db, options: ListOptions, check?: SQL): Promise<boolean> {
  const { tag, ...filters } = options.filters;
  const pageSize = filters.pageSize ?? 25;
  const hit = and(tag ? arrayContains(chats.tags, [tag]) : undefined, check) ?? sql`true`;
  const newest = db
    .select({ id: chats.id, tags: chats.tags, aliasId: chats.aliasId, customerId: chats.customerId })
    .from(chats)
    .where(and(...listConditions({ ...options, filters })))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(TAG_WALK_ROWS);
  // The walk's rows go by the table's name, so the check reads them as it would read the table.
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (
      select 1 from (${newest}) as ${chats} where ${hit} limit ${pageSize + 1}) hits`),
  );
  return n > pageSize;
}

/** Whether the list's conditions hold for at most `limit` chats: counted, stopping past the limit. */
async function fewMatches(db: Db, options: ListOptions, limit: number): Promise<boolean> {
  const matches = db
    .select({ one: sql`1` })
    .from(chats)
    .where(and(...listConditions(options)))
    .limit(limit + 1)
    .as('matches');
  const [{ n }] = await db.select({ n: count() }).from(matches);
  return n <= limit;
}

/** The statement behind a page (one row more than the page, to tell whether another follows); the plan test reads it too. */
export function listChatsQuery(db: Db, options: ListOptions) {
  const pageSize = options.filters.pageSize ?? 25;
  const where = listConditions(options);
  const order = [desc(chats.updatedAt), desc(chats.id)];
  if (!options.few) return db.query.chats.findMany({ where: and(...where), orderBy: order, limit: pageSize + 1, with: chatListWith });
  // A few chats: the page is picked first from the chats alone, ordered by an expression no index
  // has, so the planner reads them by primary key and sorts them; then only the page is joined to
  // its team, customer and latest messages. Ordered by the column, the planner walked the list's
  // index newest first checking each row against the IDs (555 chats of a million, a name shared by
  // 111 customers: 55,000 rows of that walk, 370 ms); sorted after the joins, every match was joined.
  const page = db
    .select({ id: chats.id })
    .from(chats)
    .where(and(...where))
    .orderBy(desc(sql`${chats.updatedAt} + interval '0 s'`), desc(chats.id))
    .limit(pageSize + 1);
  return db.query.chats.findMany({ where: inArray(chats.id, page), orderBy: order, limit: pageSize + 1, with: chatListWith });
}

function listConditions({ accountId, filters, also }: ListOptions): SQL[] {
  const where: SQL[] = [eq(chats.accountId, accountId)];
  if (also) where.push(also);
  if (filters.status) where.push(eq(chats.status, filters.status));
  if (filters.channel) where.push(eq(chats.channel, filters.channel));
  if (filters.teamId) where.push(eq(chats.teamId, filters.teamId));
  if (filters.tag) where.push(arrayContains(chats.tags, [filters.tag]));
  if (filters.updatedSince) where.push(gte(chats.updatedAt, new Date(filters.updatedSince)));
  if (filters.assignee) {
    // A login ID names at most one user of the account: compared as one value (not `in (…)`), the
    // planner resolves it first and walks the assignee's own index in the list's order.
    // (Plain names: the relational query would rewrite column objects to the chats table.)
    const assignee = sql`(select u.id from users u where u.account_id = ${accountId} and u.login_id = ${filters.assignee})`;
    where.push(eq(chats.assigneeId, assignee));
  }
  if (filters.cursor) {
    const [at, id] = decodeCursor(
      filters.cursor,
      (p): p is [string, string] => p.length === 2 && p.every((x) => typeof x === 'string') && !Number.isNaN(Date.parse(p[0] as string)),
    );
    // A row comparison is one index condition, so the next page starts at the cursor in the index
    // instead of filtering every row before it.
    where.push(sql`(${chats.updatedAt}, ${chats.id}) < (${new Date(at).toISOString()}::timestamptz, ${id})`);
  }
  return where;
}
