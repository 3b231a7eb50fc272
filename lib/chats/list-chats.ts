import { and, arrayContains, count, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Channel, ChatStatus } from '@/contracts/enums';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/lib/util/cursor';
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
 * Above this many chats a tag's chats are found by walking the list's index; at or below it they are
 * read through the tags index and sorted. A tag's index cannot give the list's order, so for a rare
 * tag the walk checks row after row (a tag on 1 chat in 1,000: 26,000 rows for a page); reading and
 * sorting costs one row a match. The two meet near the square root of 26 times the table's chats:
 * about 5,000 at a million.
 */
export const FEW_TAGGED_LIMIT = 5_000;

/** The account's chats, most recently updated first, with keyset pagination on (updated_at, id). */
export async function listChats(db: Db, options: ListOptions): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  const { filters } = options;
  const pageSize = filters.pageSize ?? 25;
  const few = options.few ?? (filters.tag ? await fewMatches(db, options, FEW_TAGGED_LIMIT) : false);
  const rows = await listChatsQuery(db, { ...options, few });
  const page = rows.slice(0, pageSize).map(toChatView);
  const last = page.at(-1);
  return { chats: page, nextCursor: rows.length > pageSize && last ? encodeCursor([last.updated_at, last.chat_id]) : null };
}

/** Whether the list's conditions hold for at most `limit` chats: counted, stopping past the limit. */
export async function fewMatches(db: Db, options: ListOptions, limit: number): Promise<boolean> {
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
