import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { notHeldXid } from '@/lib/events/held-events';
import { serializeEvent } from '@/lib/events/serialize-event';
import { signWebhook } from '@/lib/events/sign-webhook';
import { preparedSql } from '@/platform/util/prepared';
import { rowsOf } from '@/platform/util/rows-of';
import { encodeCursor, type Position } from './cursor';

const p = sql.placeholder;

/** One pulled event: what GET /events and the stream give (the body signed as a delivery would be). */
export type PulledItem = {
  cursor: string;
  event_type: string;
  webhook_id: string;
  webhook_timestamp: string;
  webhook_signature: string;
  body: string;
};

export type EventPage = {
  items: PulledItem[];
  /** The position after the last item (the one read from when there is none). */
  next: Position;
  /**
   * Events after `next` that are committed but not yet in order: a transaction with a lower id is
   * still open. Read again shortly; no wake will come for them.
   */
  heldBack: boolean;
};

type Row = {
  id: string | number;
  stream_xid: string | number;
  ready: boolean;
  transaction_id: string;
  event_type: string;
  body: Record<string, unknown> | string;
  current_secret: string | null;
  previous_secret: string | null;
};

/**
 * Up to `limit` events of the VA after `after`, in pull order, each as the exact body and Standard
 * Webhooks headers a delivery of it would carry now.
 *
 * Gap-free in commit order: a row is given only when its `stream_xid` is below this statement's
 * snapshot xmin. Every transaction with a lower id has ended by then, and a row's `stream_xid` is
 * at least its own transaction's id, so all such rows are already visible and none can be
 * committed behind the returned position later. A later row still above the horizon (`ready`
 * false) stops the page and is reported as held back. One range scan of `events_va_stream_idx`.
 *
 * Prepared once per process (a pulling bot reads a page for every turn it is woken for); its
 * values are `vaUserId`, `accountId`, `afterXid`, `afterId` and `limit`. The plan test reads it too.
 */
export const eventPageSql = sql`
      select e.id, e.stream_xid, e.transaction_id, e.event_type, e.body,
        e.stream_xid < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint as ready,
        -- Uncorrelated: evaluated once per statement (an InitPlan), not per row.
        (select signing_secret from virtual_agents where user_id = ${p('vaUserId')}::int and account_id = ${p('accountId')}::int) as current_secret,
        (select case when previous_signing_secret_expires_at > now() then previous_signing_secret end
          from virtual_agents where user_id = ${p('vaUserId')}::int and account_id = ${p('accountId')}::int) as previous_secret
      from events e
      where e.virtual_agent_id = ${p('vaUserId')}::int and e.account_id = ${p('accountId')}::int
        and (e.stream_xid, e.id) > (${p('afterXid')}::bigint, ${p('afterId')}::bigint)
        -- A turn still held (lib/turns) is not in the order yet: its release gives it a place.
        and e.stream_xid < ${notHeldXid}
      order by e.stream_xid, e.id
      limit ${p('limit')}::int`;
const eventPageStatement = preparedSql('event_page', eventPageSql);

export async function readEventPage(
  db: Db,
  {
    accountId,
    vaUserId,
    after,
    limit,
    now = new Date(),
  }: { accountId: number; vaUserId: number; after: Position; limit: number; now?: Date },
): Promise<EventPage> {
  const rows = rowsOf<Row>(await eventPageStatement(db).execute({ vaUserId, accountId, afterXid: after.xid, afterId: after.id, limit }));
  const ready: Row[] = [];
  let heldBack = false;
  for (const row of rows) {
    if (!row.ready) {
      heldBack = true;
      break;
    }
    ready.push(row);
  }
  if (!ready.length) return { items: [], next: after, heldBack };

  const secrets = ready[0].current_secret ? { current: ready[0].current_secret, previous: ready[0].previous_secret } : null;
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const items = ready.map((row): PulledItem => {
    const payload = serializeEvent(typeof row.body === 'string' ? JSON.parse(row.body) : row.body, now);
    const position = { xid: Number(row.stream_xid), id: Number(row.id) };
    return {
      cursor: encodeCursor(vaUserId, position),
      event_type: row.event_type,
      webhook_id: row.transaction_id,
      webhook_timestamp: timestamp,
      webhook_signature: secrets
        ? signWebhook({ transactionId: row.transaction_id, at: now, payload, secrets: [secrets.current, secrets.previous] })
        : '',
      body: payload,
    };
  });
  const last = ready[ready.length - 1];
  return { items, next: { xid: Number(last.stream_xid), id: Number(last.id) }, heldBack };
}
