import { sql } from 'drizzle-orm';
import { APPLICATION_NAME, getHandle } from '@/db/client';
import { env } from '@/env';
import { reportedEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { streamSeats } from '@/platform/realtime/stream-seats';
import { retryOnStaleConnection } from '@/platform/util/database-unavailable';
import { logger } from '@/platform/util/logger';
import { gauge } from './registry';

type Row = Record<string, unknown>;

/** Rows of a raw query on either driver (postgres.js returns an array, PGlite `{ rows }`). */
function rowsOf(result: unknown): Row[] {
  return Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []);
}

const CIRCUIT_STATES = ['closed', 'open', 'half-open'] as const;

/** Leaves out the rows of replay sandboxes (lib/replay): no gauge of the live service counts a replay. */
const liveAccount = (table: 'events' | 'chats') =>
  sql.raw(
    `not exists (select 1 from "accounts" as "sbx" where "sbx"."id" = "${table}"."account_id" and "sbx"."sandbox_of_account_id" is not null)`,
  );

/**
 * Registers the gauges read at scrape time: the delivery backlog and its oldest pending event per
 * VA, circuit states and calls in flight of this process's engine (also while it stops), and the
 * database pool. A database that cannot be reached shows as `vachat_database_up 0`, not as a
 * failed scrape.
 */
export function registerScrapeGauges(): void {
  gauge('vachat_database_up', 'Whether the last scrape could query the database (1) or not (0)', [], async (g) => {
    try {
      const { db } = await getHandle();
      await retryOnStaleConnection(() => db.execute(sql`select 1`));
      g.set(1);
    } catch {
      g.set(0);
    }
  });
  gauge(
    'vachat_delivery_backlog_events',
    'Pending events per VA (all instances): not yet delivered nor failed',
    ['virtual_agent_id'],
    async (g) => {
      pendingBacklog = queryBacklog();
      for (const r of await pendingBacklog) g.set({ virtual_agent_id: String(r.va) }, Number(r.pending));
    },
  );
  gauge(
    'vachat_delivery_oldest_pending_seconds',
    'Age of the oldest pending event per VA (all instances)',
    ['virtual_agent_id'],
    async (g) => {
      const rows = await (pendingBacklog ?? queryBacklog());
      pendingBacklog = undefined;
      for (const r of rows) g.set({ virtual_agent_id: String(r.va) }, Number(r.oldest_seconds));
    },
  );
  gauge(
    'vachat_chats_waiting_on_bot',
    'Chats per VA whose customer waits for the VA to reply (all instances)',
    ['virtual_agent_id'],
    async (g) => {
      try {
        const { db } = await getHandle();
        // Reads the partial index on waiting chats (chats_awaiting_reply_idx).
        const rows = rowsOf(
          await db.execute(sql`
            select "assignee_id" as va, count(*)::int as waiting
            from "chats" where "awaiting_reply_since" is not null and "assignee_id" is not null and ${liveAccount('chats')} group by 1`),
        ) as unknown as { va: number; waiting: number }[];
        for (const r of rows) g.set({ virtual_agent_id: String(r.va) }, Number(r.waiting));
      } catch (err) {
        logger.debug('waiting-on-bot gauge unavailable', { err });
      }
    },
  );
  gauge(
    'vachat_delivery_circuit_state',
    "1 for the circuit state of each VA's endpoint known to this process's engine (others are closed)",
    ['virtual_agent_id', 'state'],
    (g) => {
      for (const e of reportedEmbeddedEngine()?.health.states() ?? []) {
        for (const state of CIRCUIT_STATES) g.set({ virtual_agent_id: String(e.vaId), state }, e.state === state ? 1 : 0);
      }
    },
  );
  gauge(
    'vachat_delivery_webhook_failing',
    'VAs whose webhook is marked failing: nothing but failed attempts for WEBHOOK_FAILING_AFTER_SECONDS (all instances)',
    ['virtual_agent_id'],
    async (g) => {
      try {
        const { db } = await getHandle();
        const rows = rowsOf(await db.execute(sql`select "user_id" as va from "virtual_agents" where "webhook_failing_at" is not null`));
        for (const r of rows) g.set({ virtual_agent_id: String(r.va) }, 1);
      } catch (err) {
        logger.debug('failing-webhook gauge unavailable', { err });
      }
    },
  );
  gauge('vachat_delivery_in_flight', "Webhook calls in flight in this process's engine", [], (g) => {
    g.set(reportedEmbeddedEngine()?.inFlight ?? 0);
  });
  gauge(
    'vachat_live_streams',
    'Live streams (pulled events, widget, workspace, console chat page) this instance holds, its capacity (EVENT_STREAMS_PER_INSTANCE; +Inf when unbounded) and those refused with 2051 since it started, by kind: held, capacity, refused',
    ['kind'],
    (g) => {
      const { held, capacity } = streamSeats();
      g.set({ kind: 'held' }, held);
      g.set({ kind: 'capacity' }, capacity);
    },
  );
  gauge('vachat_database_pool_max', 'Most PostgreSQL connections this process opens (DATABASE_POOL_SIZE)', [], (g) => {
    g.set(env().DATABASE_URL ? env().DATABASE_POOL_SIZE : 1);
  });
  gauge(
    'vachat_database_connections',
    "This process's open PostgreSQL connections by state (pg_stat_activity: active, idle, idle in transaction)",
    ['state'],
    async (g) => {
      if (!env().DATABASE_URL) return;
      try {
        const { db } = await getHandle();
        const rows = rowsOf(
          await db.execute(
            sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity where application_name = ${APPLICATION_NAME} group by 1`,
          ),
        );
        for (const r of rows) g.set({ state: String(r.state) }, Number(r.n));
      } catch (err) {
        logger.debug('pool gauge unavailable', { err });
      }
    },
  );
}

// The two backlog gauges share one query per scrape: the first (collected first) runs it, the second takes its rows.
let pendingBacklog: Promise<Row[]> | undefined;

async function queryBacklog(): Promise<Row[]> {
  try {
    const { db } = await getHandle();
    // Reads the pending rows through the partial index on pending events.
    return rowsOf(
      await db.execute(sql`
        select "virtual_agent_id" as va, count(*)::int as pending,
          extract(epoch from (now() - min("created_at")))::float8 as oldest_seconds
        from "events" where "status" = 'pending' and ${liveAccount('events')} group by 1`),
    );
  } catch (err) {
    logger.debug('backlog gauges unavailable', { err });
    return [];
  }
}
