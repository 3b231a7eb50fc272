import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { rowsOf } from '@/platform/util/rows-of';

/** How often an instance marks its open widget streams as alive; a row older than STALE_SECONDS no longer counts. */
const WIDGET_SEEN_EVERY_MS = 15_000;
const STALE_SECONDS = 60;

type Shared = { open: Set<string>; timer?: NodeJS.Timeout; db?: Db };
const store = processStore<{ __widgetStreamSlots?: Shared }>();
store.__widgetStreamSlots ??= { open: new Set() };
const shared = store.__widgetStreamSlots;

/**
 * Admits one widget stream: counts the streams open for the customer and for the chat over every
 * instance (the `widget_streams` table) and refuses with 2066 when either cap is reached; otherwise
 * records the stream and returns its slot id. Two advisory locks (the customer's, then the chat's,
 * always in that order) make the count and the insert one step against concurrent opens.
 */
export async function takeWidgetStreamSlot(
  db: Db,
  { customer, chatId, perCustomer, perChat }: { customer: string; chatId: string; perCustomer: number; perChat: number },
): Promise<string> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('widget_streams:customer'), hashtext(${customer}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('widget_streams:chat'), hashtext(${chatId}))`);
    const [row] = rowsOf<{ by_customer: string | number; by_chat: string | number }>(
      await tx.execute(sql`
        select
          (select count(*) from widget_streams where customer = ${customer} and seen_at >= now() - ${STALE_SECONDS} * interval '1 second') as by_customer,
          (select count(*) from widget_streams where chat_id = ${chatId} and seen_at >= now() - ${STALE_SECONDS} * interval '1 second') as by_chat`),
    );
    if (Number(row?.by_customer ?? 0) >= perCustomer) {
      throw new ApiError(2066, { detail: `${perCustomer} are open for this customer (WIDGET_STREAMS_PER_CUSTOMER)` });
    }
    if (Number(row?.by_chat ?? 0) >= perChat) {
      throw new ApiError(2066, { detail: `${perChat} are open on this chat (WIDGET_STREAMS_PER_CHAT)` });
    }
    await tx.execute(sql`insert into widget_streams (id, customer, chat_id) values (${id}, ${customer}, ${chatId})`);
  });
  shared.open.add(id);
  shared.db = db;
  shared.timer ??= setInterval(refresh, WIDGET_SEEN_EVERY_MS).unref();
  return id;
}

/** Gives the slot back (the stream ended). A failed delete only delays: the row lapses in a minute. */
export async function releaseWidgetStreamSlot(db: Db, id: string): Promise<void> {
  shared.open.delete(id);
  if (!shared.open.size && shared.timer) {
    clearInterval(shared.timer);
    shared.timer = undefined;
  }
  await db
    .execute(sql`delete from widget_streams where id = ${id}`)
    .catch((err) => logger.warn('widget stream slot not released; it lapses in a minute', { err }));
}

/**
 * Marks this instance's open widget streams as alive, and deletes every row nobody refreshed for
 * STALE_SECONDS (streams of an instance that died): the table holds only open streams.
 */
export async function refreshWidgetStreams(): Promise<void> {
  const db = shared.db;
  if (!db || !shared.open.size) return;
  const ids = [...shared.open];
  await db
    .execute(
      // One array parameter: a list of as many parameters costs a statement of that size to build and parse.
      sql`update widget_streams set seen_at = now() where id = any(${`{${ids.join(',')}}`}::text[])`,
    )
    .then(() => db.execute(sql`delete from widget_streams where seen_at < now() - ${STALE_SECONDS} * interval '1 second'`))
    .catch((err) => logger.warn('open widget streams not refreshed', { err }));
}

function refresh(): void {
  void refreshWidgetStreams();
}
