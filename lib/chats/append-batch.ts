import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { prepared } from '@/platform/util/prepared';
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
 * Statements of appends in flight on one handle at once. An append that comes while they are all
 * in flight waits, and the ones waiting go together in the next statement when one comes back
 * (a commit's round trip and its WAL flush shared by many chunks). Below that, an append goes at
 * once and alone, as before batching.
 */
const IN_FLIGHT = 2;
/** The most appends one statement carries. */
const MAX_BATCH = 100;

/** Statements that carried several appends, and the appends they carried, in this process. */
export const appendBatches = { statements: 0, appends: 0 };

type Pending = { item: AppendItem; resolve: (row: AppendedRow | undefined) => void; reject: (err: unknown) => void };
type Batcher = { waiting: Pending[]; inFlight: number };
const batchers = new WeakMap<Db, Batcher>();

/**
 * Appends a chunk, alone or in one statement with other streams' chunks (see IN_FLIGHT), and
 * answers the message as it left the append, or nothing when the append's conditions did not
 * hold (the caller reads why). Each append is its own commit's as before: a batch commits whole,
 * and when it fails (a deadlock with another writer, a database error, one item's text the
 * statement cannot take), each of its appends is tried again alone, so one cannot fail the others.
 */
export function appendToStream(db: Db, item: AppendItem): Promise<AppendedRow | undefined> {
  let b = batchers.get(db);
  if (!b) {
    b = { waiting: [], inFlight: 0 };
    batchers.set(db, b);
  }
  const batcher = b;
  return new Promise((resolve, reject) => {
    batcher.waiting.push({ item, resolve, reject });
    if (batcher.inFlight < IN_FLIGHT) send(db, batcher);
  });
}

function send(db: Db, b: Batcher): void {
  // One append per message in a statement (a message's later chunk waits for the next), in the
  // order they came.
  const batch: Pending[] = [];
  const rest: Pending[] = [];
  const messagesIn = new Set<string>();
  for (const p of b.waiting) {
    if (batch.length < MAX_BATCH && !messagesIn.has(p.item.transid)) {
      messagesIn.add(p.item.transid);
      batch.push(p);
    } else rest.push(p);
  }
  b.waiting = rest;
  b.inFlight++;
  void run(db, batch).finally(() => {
    b.inFlight--;
    if (b.waiting.length) send(db, b);
  });
}

/** Text JSON cannot carry to PostgreSQL's jsonb (a lone surrogate, NUL): such an append goes alone. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const forJsonb = (text: string) => !text.includes('\0') && !LONE_SURROGATE.test(text);

async function run(db: Db, batch: Pending[]): Promise<void> {
  const together = batch.length > 1 ? batch.filter((p) => forJsonb(p.item.text)) : [];
  const alone = together.length > 1 ? batch.filter((p) => !together.includes(p)) : batch;
  if (together.length > 1) {
    try {
      const items = together.map(({ item: i }, k) => ({
        k,
        transid: i.transid,
        chat_id: i.chatId,
        account_id: i.accountId,
        after: i.after,
        text: i.text,
        length: i.length,
        actor: i.actor,
      }));
      const rows = await appendBatch(db).execute({ items: JSON.stringify(items) });
      appendBatches.statements++;
      appendBatches.appends += together.length;
      const byPlace = new Map(rows.map((r) => [r.k, r]));
      for (const [k, p] of together.entries()) p.resolve(byPlace.get(k));
    } catch {
      alone.push(...together);
    }
  }
  await Promise.all(alone.map((p) => appendAlone(db, p)));
}

async function appendAlone(db: Db, { item, resolve, reject }: Pending): Promise<void> {
  try {
    const [row] = await (item.actor === null ? appendAnyone : appendHeld)(db).execute({ ...item, actor: item.actor ?? 0 });
    resolve(row);
  } catch (err) {
    reject(err);
  }
}
