import { and, eq, sql } from 'drizzle-orm';
import { SAFE_TEXT_PATTERN } from '@/contracts/common';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { prepared } from '@/platform/util/prepared';
import { statementBatches } from '@/platform/util/statement-batches';
import type { MessageRow } from './message-view';
import { heldBy, MAX_TEXT_LENGTH, streamReturning } from './stream-text';

/**
 * A chunk's append to an open streamed reply, as a statement takes it: the message (`transid`, of
 * `chatId` in `accountId`), the chunk's text and length (UTF-16 units, as the API counts), the
 * `stream_seq` it must follow (`after`), and the user who must hold the chat (`actor`; null: any).
 */
export type AppendItem = {
  transid: string;
  chatId: string;
  accountId: number;
  after: number;
  text: string;
  length: number;
  actor: number | null;
};
/** The message as the append left it (nothing when its conditions did not hold). */
export type AppendedRow = MessageRow & { id: number };

/**
 * The append of one chunk, prepared once per database handle: a chunk comes many times a second per
 * streaming chat, and building this statement anew was a tenth of the call's CPU.
 */
function appendStatement(db: Db, held: boolean) {
  const text = sql.placeholder('text');
  const length = sql`${sql.placeholder('length')}::int`;
  return db
    .update(messages)
    .set({
      body: sql`jsonb_set(${messages.body}, '{text}', to_jsonb(coalesce(${messages.body}->>'text', '') || ${text}::text))`,
      streamSeq: sql`${messages.streamSeq} + 1`,
      streamEnds: sql`array_append(${messages.streamEnds}, ${messages.streamEnds}[cardinality(${messages.streamEnds})] + ${length})`,
      streamTouchedAt: sql`now()`,
    })
    .where(
      and(
        eq(messages.transid, sql.placeholder('transid')),
        eq(messages.chatId, sql.placeholder('chatId')),
        eq(messages.accountId, sql.placeholder('accountId')),
        eq(messages.streamState, 'open'),
        eq(messages.streamSeq, sql.placeholder('after')),
        sql`${messages.streamEnds}[cardinality(${messages.streamEnds})] + ${length} <= ${MAX_TEXT_LENGTH}`,
        heldBy(sql.placeholder('chatId'), held ? sql.placeholder('actor') : null),
      ),
    )
    .returning({ id: messages.id, ...streamReturning });
}
const appendHeld = prepared('stream_append_held', (db) => appendStatement(db, true));
const appendAnyone = prepared('stream_append', (db) => appendStatement(db, false));

/**
 * The appends of several messages in one statement, under the same conditions as the single one:
 * the items arrive as one JSON array, each is matched to its message by `transid` (unique), and
 * each row comes back with its item's place (`k`). The holder is read as a scalar subquery, one
 * lookup by the chat's key per item: as `exists`, the planner hashed the whole chats table for
 * it (test/plans/chats). Exported for the plan test.
 */
export function batchAppendQuery(db: Db) {
  const items = db.$with('items', { k: sql<number>`k` }).as(sql`
    select * from jsonb_to_recordset(${sql.placeholder('items')}::jsonb)
      as v(k int, transid text, chat_id text, account_id int, after int, text text, length int, actor int)`);
  const appended = db.$with('appended', { k: sql<number>`k` }).as(sql`
    update ${messages} m set
      body = jsonb_set(m.body, '{text}', to_jsonb(coalesce(m.body->>'text', '') || items.text)),
      stream_seq = m.stream_seq + 1,
      stream_ends = array_append(m.stream_ends, m.stream_ends[cardinality(m.stream_ends)] + items.length),
      stream_touched_at = now()
    from items
    where m.transid = items.transid and m.chat_id = items.chat_id and m.account_id = items.account_id
      and m.stream_state = 'open' and m.stream_seq = items.after
      and m.stream_ends[cardinality(m.stream_ends)] + items.length <= ${sql.raw(String(MAX_TEXT_LENGTH))}
      and (items.actor is null or (select c.assignee_id from ${chats} c where c.id = items.chat_id) = items.actor)
    returning items.k, m.id, m.transid, m.type, m.body, m.author_login_id, m.sent_at, m.stream_state, m.stream_seq, m.turn_id, m.stale`);
  return db
    .with(items, appended)
    .select({
      k: sql<number>`appended.k`.mapWith(Number),
      id: sql<number>`appended.id`.mapWith(Number),
      transid: sql<string>`appended.transid`,
      type: sql<MessageRow['type']>`appended.type`,
      body: sql<Record<string, unknown>>`appended.body`.mapWith(messages.body),
      authorLoginId: sql<string | null>`appended.author_login_id`,
      sentAt: sql<string>`appended.sent_at`,
      streamState: sql<MessageRow['streamState']>`appended.stream_state`,
      streamSeq: sql<number | null>`appended.stream_seq`,
      turnId: sql<string | null>`appended.turn_id`,
      stale: sql<boolean | null>`appended.stale`,
    })
    .from(appended);
}
const appendBatch = prepared('stream_append_batch', batchAppendQuery);

/**
 * Appends a chunk, alone or in one statement with other streams' chunks
 * (platform/util/statement-batches.ts), and answers the message as it left the append, or nothing
 * when the append's conditions did not hold (the caller reads why).
 */
export const streamAppends = statementBatches<AppendItem, AppendedRow | undefined>({
  alone: async (db, item) => {
    const [row] = await (item.actor === null ? appendAnyone : appendHeld)(db).execute({ ...item, actor: item.actor ?? 0 });
    return row;
  },
  together: async (db, items) => {
    const rows = await appendBatch(db).execute({
      items: JSON.stringify(
        items.map((i, k) => ({
          k,
          transid: i.transid,
          chat_id: i.chatId,
          account_id: i.accountId,
          after: i.after,
          text: i.text,
          length: i.length,
          actor: i.actor,
        })),
      ),
    });
    const byPlace = new Map(rows.map((r) => [r.k, r]));
    return items.map((_, k) => byPlace.get(k));
  },
  keyOf: (item) => item.transid,
  // Text JSON cannot carry to jsonb (NUL, a lone surrogate) goes alone: the API refuses both, but a
  // reply sent as one event stream is not checked against them.
  shareable: (item) => SAFE_TEXT_PATTERN.test(item.text),
});
