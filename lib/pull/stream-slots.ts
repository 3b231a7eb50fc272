import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { rowsOf } from '@/platform/util/rows-of';

/** Open streams a VA may hold at once, over all instances. */
const MAX_STREAMS_PER_VA = 5;
/** How often an instance marks its open streams as alive; a row older than STALE_SECONDS no longer counts. */
const SEEN_EVERY_MS = 15_000;
const STALE_SECONDS = 60;

type Shared = { open: Map<string, number>; timer?: NodeJS.Timeout; db?: Db };
const store = processStore<{ __vaStreamSlots?: Shared }>();
store.__vaStreamSlots ??= { open: new Map() };
const shared = store.__vaStreamSlots;

/**
 * Takes one of the VA's stream slots (2062 when all are taken) and returns its id. The count is
 * a table shared by every instance: a transaction-scoped advisory lock on the VA makes the count
 * and the insert one step, and rows an instance stopped refreshing (it died) are removed here.
 */
export async function takeStreamSlot(db: Db, { vaUserId }: { vaUserId: number }): Promise<string> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('event_streams'), ${vaUserId})`);
    await tx.execute(sql`
      delete from event_streams where virtual_agent_id = ${vaUserId} and seen_at < now() - ${STALE_SECONDS} * interval '1 second'`);
    const [row] = rowsOf<{ n: string | number }>(
      await tx.execute(sql`select count(*) as n from event_streams where virtual_agent_id = ${vaUserId}`),
    );
    if (Number(row?.n ?? 0) >= MAX_STREAMS_PER_VA) {
      throw new ApiError(2062, { detail: `${MAX_STREAMS_PER_VA} are open` });
    }
    await tx.execute(sql`insert into event_streams (id, virtual_agent_id) values (${id}, ${vaUserId})`);
  });
  shared.open.set(id, vaUserId);
  shared.db = db;
  shared.timer ??= setInterval(refresh, SEEN_EVERY_MS).unref();
  return id;
}

/** Gives the slot back (the stream ended). */
export async function releaseStreamSlot(db: Db, id: string): Promise<void> {
  shared.open.delete(id);
  if (!shared.open.size && shared.timer) {
    clearInterval(shared.timer);
    shared.timer = undefined;
  }
  await db
    .execute(sql`delete from event_streams where id = ${id}`)
    .catch((err) => logger.warn('stream slot not released; it lapses in a minute', { err }));
}

/**
 * One statement for all of this instance's open streams: their slots are alive, and their VAs are
 * reading (event_cursors.last_read_at, which the bot-down fallback of pull VAs reads), so a stream
 * open for hours keeps its VA fresh without a write per event or per stream.
 */
export async function refreshOpenStreams(): Promise<void> {
  const db = shared.db;
  if (!db || !shared.open.size) return;
  const ids = [...shared.open.keys()];
  const vas = [...new Set(shared.open.values())];
  await db
    .execute(
      sql`with seen as (
        update event_streams set seen_at = now() where id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}) returning 1)
      update event_cursors set last_read_at = now() where virtual_agent_id in (${sql.join(
        vas.map((v) => sql`${v}`),
        sql`, `,
      )}) and exists (select 1 from seen)`,
    )
    .catch((err) => logger.warn('open streams not refreshed', { err }));
}

function refresh(): void {
  void refreshOpenStreams();
}
