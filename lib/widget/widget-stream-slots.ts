import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { isForeignKeyViolation } from '@/platform/util/is-unique-violation';
import { logger } from '@/platform/util/logger';
import { preparedSql } from '@/platform/util/prepared';
import { processStore } from '@/platform/util/process-store';
import { rowsOf } from '@/platform/util/rows-of';

/** How often an instance marks itself alive while it holds widget streams; one not seen for STALE_SECONDS has died. */
const WIDGET_SEEN_EVERY_MS = 15_000;
const STALE_SECONDS = 60;
/** A refusal's hint: a stream whose instance died stops counting within STALE_SECONDS. */
const RETRY_AFTER = { 'Retry-After': String(STALE_SECONDS) };

type Shared = { instance: string; open: Set<string>; timer?: NodeJS.Timeout; db?: Db };
const store = processStore<{ __widgetStreamSlots?: Shared }>();
store.__widgetStreamSlots ??= { instance: randomUUID(), open: new Set() };
const shared = store.__widgetStreamSlots;

/** Admits a stream (answers 0), or names the cap reached (1: the customer's, 2: the chat's): db/migrations, `take_widget_stream_slot`. */
const takeSlotStatement = preparedSql(
  'take_widget_stream_slot',
  sql`select take_widget_stream_slot(${sql.placeholder('id')}, ${sql.placeholder('customer')}, ${sql.placeholder('chatId')},
    ${sql.placeholder('instance')}, ${sql.placeholder('perCustomer')}::int, ${sql.placeholder('perChat')}::int, ${STALE_SECONDS}::int) as taken`,
);

/**
 * Admits one widget stream: counts the streams open for the customer and for the chat over every
 * instance (the `widget_streams` table) and refuses with 2066 when either cap is reached; otherwise
 * records the stream under this instance and returns its slot id. One statement: a database
 * function takes two advisory locks (the customer's, then the chat's, always in that order), then
 * counts and inserts, so the count and the insert are one step against concurrent opens (it
 * replaced a transaction of five round trips, a large share of a stream's opening).
 */
export async function takeWidgetStreamSlot(
  db: Db,
  { customer, chatId, perCustomer, perChat }: { customer: string; chatId: string; perCustomer: number; perChat: number },
): Promise<string> {
  const id = randomUUID();
  if (!shared.timer) await markAlive(db);
  const values = { id, customer, chatId, instance: shared.instance, perCustomer, perChat };
  const take = async () => rowsOf<{ taken: number }>(await takeSlotStatement(db).execute(values))[0]?.taken;
  const taken = await take().catch(async (err) => {
    // This instance was taken for dead (not seen for a minute: a long pause) and its row deleted: mark it alive again.
    if (!isForeignKeyViolation(err)) throw err;
    await markAlive(db);
    return take();
  });
  if (taken === 1) {
    throw new ApiError(2066, { detail: `${perCustomer} are open for this customer (WIDGET_STREAMS_PER_CUSTOMER)`, headers: RETRY_AFTER });
  }
  if (taken === 2) {
    throw new ApiError(2066, { detail: `${perChat} are open on this chat (WIDGET_STREAMS_PER_CHAT)`, headers: RETRY_AFTER });
  }
  if (taken !== 0) throw new Error(`take_widget_stream_slot answered ${String(taken)}`);
  shared.open.add(id);
  shared.db = db;
  shared.timer ??= setInterval(refresh, WIDGET_SEEN_EVERY_MS).unref();
  return id;
}

/** Gives the slot back (the stream ended). A failed delete only delays: the row goes with its instance, or when the stream's instance stops. */
export async function releaseWidgetStreamSlot(db: Db, id: string): Promise<void> {
  shared.open.delete(id);
  if (!shared.open.size && shared.timer) {
    clearInterval(shared.timer);
    shared.timer = undefined;
  }
  await db
    .execute(sql`delete from widget_streams where id = ${id}`)
    .catch((err) => logger.warn('widget stream slot not released; it lapses with its instance', { err }));
}

/** This instance's row, seen now. */
async function markAlive(db: Db): Promise<void> {
  await db.execute(
    sql`insert into widget_stream_instances (id) values (${shared.instance}) on conflict (id) do update set seen_at = now()`,
  );
}

/**
 * Marks this instance alive (one row, however many streams it holds), and deletes every instance
 * not seen for STALE_SECONDS with its streams' rows (an instance that died), and the rows of the
 * release before that nobody refreshed: the table holds only open streams.
 */
export async function refreshWidgetStreams(): Promise<void> {
  const db = shared.db;
  if (!db || !shared.open.size) return;
  await markAlive(db)
    .then(() => db.execute(sql`delete from widget_stream_instances where seen_at < now() - ${STALE_SECONDS} * interval '1 second'`))
    .then(() =>
      db.execute(sql`delete from widget_streams where instance_id is null and seen_at < now() - ${STALE_SECONDS} * interval '1 second'`),
    )
    .catch((err) => logger.warn('open widget streams not refreshed', { err }));
}

function refresh(): void {
  void refreshWidgetStreams();
}
