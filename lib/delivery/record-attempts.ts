import { and, eq, isNull, sql } from 'drizzle-orm';
import type { EventStatus } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { events, virtualAgents } from '@/db/schema';
import { applyBotDownFallback } from '@/lib/chats/apply-bot-down-fallback';
import { rerouteFromFailingVa } from '@/lib/chats/reroute-chat';
import { clampRetryAfter, leaseMs as defaultLeaseMs, retryDelayAfter, retryDelaysMs } from '@/lib/events/schedule';
import { logger } from '@/platform/util/logger';
import { prepared } from '@/platform/util/prepared';
import type { ClaimedEvent } from './claim-due-events';
import { hurryWaitingEvents } from './hurry-waiting-events';
import { parkLaterEvents } from './park-later-events';
import { EXCERPT_CHARS, type SendOutcome } from './send-webhook';
import { noteWebhookOutcome } from './webhook-failing';

export type AttemptResult = {
  attemptNumber: number;
  /** The event's state as recorded (`superseded`: a retry of a chat its VA no longer holds). */
  status: EventStatus;
  /** When the next attempt is due (status `pending`); null otherwise. */
  retryInMs: number | null;
  /**
   * False when the lease ran out before the attempt was recorded: another worker took the event, or
   * the chat left the VA after the lease ended and the event was superseded. Nothing else takes an
   * event out of a live lease.
   */
  leaseHeld: boolean;
  /** Whether a later event of the chat for the VA was pending when the attempt was recorded. */
  hasNext: boolean;
  /** The chat's next event, leased to this worker when it asked for chaining and that event was due. */
  next: ClaimedEvent | null;
};

/**
 * `chain: false` keeps this attempt's chat from leasing its next event (its VA is paused); the
 * statement's own `chain` must be on too.
 */
export type FinishedAttempt = {
  event: ClaimedEvent;
  outcome: SendOutcome;
  chain?: boolean;
  /**
   * Set for the probe of an open circuit that failed: the attempt is recorded but does not count
   * in the event's retry schedule (the endpoint is down, not this event), and the event waits at
   * least this many ms (until the circuit's next probe).
   */
  uncountedHoldMs?: number;
  /** The engine saw this success end a run of failures of the endpoint (see EndpointHealth). */
  recovered?: boolean;
};

/** Statuses whose `Retry-After` sets the earliest next attempt. */
const SLOW_DOWN = new Set([429, 503]);

const MAX_ERROR_CHARS = 1000;

// One statement for any number of attempts: their rows in delivery_attempts, the new state of
// their events, and a lease on the next event of each chat that an attempt just released, so a
// busy engine pays one round trip and one commit per batch and a chat's next event needs no claim
// of its own. The rows travel as one jsonb parameter. An event whose lease is no longer this
// worker's keeps its state.
// An attempt is recorded as it ended whatever happened to its chat meanwhile (superseding leaves an
// event in flight alone). One case looks at the chat: an attempt that failed and would be retried,
// of a `chat.assigned` or `message.received` whose VA no longer holds the chat (it left while the
// attempt was in flight), ends the event as `superseded` instead, as if it had waited for that retry
// when the chat left. The chat rows are read FOR SHARE, so a change of the chat being committed now
// is waited for and seen (and a change that starts after sees this event out of flight).
const recordStatement = prepared('delivery_record_attempts', (db) => {
  const input = db.$with('input', { eventId: sql<number>`event_id` }).as(sql`
    select * from jsonb_to_recordset(${sql.placeholder('attempts')}::jsonb) as x(
      event_id bigint, attempt_number int, started_at timestamptz, duration_ms int, http_status int, error text,
      excerpt text, status event_status, retry_ms int, last_error text, lease timestamptz, chain boolean, counted boolean)`);
  const inserted = db.$with('inserted', { eventId: sql<number>`event_id` }).as(sql`
    insert into "delivery_attempts" ("event_id", "attempt_number", "started_at", "duration_ms", "http_status", "error", "response_excerpt")
    select "event_id", "attempt_number", "started_at", "duration_ms", "http_status", "error", "excerpt" from "input"
    returning "event_id"`);
  // The chats of the retries that may end superseded, locked (and so read as last committed) first.
  const retriedChats = db.$with('retried_chats', { id: sql<string>`id` }).as(sql`
    select "c"."id", "c"."assignee_id", "c"."status" from "chats" as "c"
    where "c"."id" in (
      select "e"."chat_id" from "input" join "events" as "e" on "e"."id" = "input"."event_id"
      where "input"."status" = 'pending' and "e"."event_type" in ('chat.assigned', 'message.received'))
    for share of "c"`);
  const planned = db.$with('planned', { eventId: sql<number>`event_id` }).as(sql`
    select "input".*, case when "input"."status" = 'pending' and exists (
        select 1 from "events" as "e" join "retried_chats" as "c" on "c"."id" = "e"."chat_id"
        where "e"."id" = "input"."event_id" and "e"."event_type" in ('chat.assigned', 'message.received')
          and ("c"."assignee_id" is distinct from "e"."virtual_agent_id" or "c"."status" = 'closed'))
      then 'superseded'::event_status else "input"."status" end as "final"
    from "input"`);
  const updated = db.$with('updated', { id: sql<number>`id` }).as(sql`
    update "events" set
      "status" = "planned"."final",
      "attempt_count" = "events"."attempt_count" + case when "planned"."counted" then 1 else 0 end,
      "next_attempt_at" = case when "planned"."final" = 'pending' then now() + "planned"."retry_ms" * interval '1 millisecond' else "events"."next_attempt_at" end,
      "locked_until" = null,
      "last_error" = "planned"."last_error",
      "delivered_at" = case when "planned"."final" = 'delivered' then now() end,
      "failed_at" = case when "planned"."final" = 'failed' then now() end,
      "superseded_at" = case when "planned"."final" = 'superseded' then now() else "events"."superseded_at" end,
      "updated_at" = now()
    from "planned"
    where "events"."id" = "planned"."event_id" and "events"."locked_until" = "planned"."lease" and "events"."status" = 'pending'
    returning "events"."id", "events"."chat_id", "events"."virtual_agent_id", "events"."seq", "events"."status",
      exists (
        select 1 from "events" as "later"
        where "later"."chat_id" = "events"."chat_id"
          and "later"."virtual_agent_id" = "events"."virtual_agent_id"
          and "later"."status" = 'pending'
          and "later"."seq" > "events"."seq") as "has_next"`);
  // The event right after each one that left `pending` (superseded ones passed over, as
  // head-of-line.ts does): now the head of its chat's line.
  const successor = db.$with('successor', { id: sql<number>`id` }).as(sql`
    select "next"."id" from "updated"
    cross join lateral (
      select "e"."id", "e"."status", "e"."next_attempt_at", "e"."locked_until" from "events" as "e"
      where "e"."chat_id" = "updated"."chat_id" and "e"."virtual_agent_id" = "updated"."virtual_agent_id" and "e"."seq" > "updated"."seq"
        and "e"."status" <> 'superseded'
      order by "e"."seq"
      limit 1) as "next"
    where ${sql.placeholder('chain')}::boolean and "updated"."status" <> 'pending' and "next"."status" = 'pending'
      and exists (select 1 from "input" where "input"."event_id" = "updated"."id" and "input"."chain")
      and "next"."next_attempt_at" <= now() and ("next"."locked_until" is null or "next"."locked_until" <= now())`);
  const chained = db.$with('chained', { id: sql<number>`id` }).as(sql`
    update "events" set "locked_until" = now() + ${sql.placeholder('leaseMs')}::int * interval '1 millisecond'
    from "virtual_agents"
    where "events"."id" in (select "id" from "successor") and "virtual_agents"."user_id" = "events"."virtual_agent_id"
      and "virtual_agents"."webhook_disabled_at" is null
      and exists (select 1 from "users" where "users"."id" = "virtual_agents"."user_id" and "users"."enabled")
      and "events"."status" = 'pending' and ("events"."locked_until" is null or "events"."locked_until" <= now())
    returning "events"."id", "events"."account_id", "events"."chat_id", "events"."virtual_agent_id", "events"."seq",
      "events"."transaction_id", "events"."body", "events"."attempt_count", "events"."locked_until",
      (select coalesce(max("attempt_number"), 0)::int from "delivery_attempts" where "event_id" = "events"."id") as "last_attempt_number",
      "virtual_agents"."webhook_url", "virtual_agents"."webhook_headers", "virtual_agents"."signing_secret",
      case when "virtual_agents"."previous_signing_secret_expires_at" > now() then "virtual_agents"."previous_signing_secret" end as "previous_signing_secret"`);
  return db
    .with(input, inserted, retriedChats, planned, updated, successor, chained)
    .select({
      id: sql<number>`"updated"."id"`.mapWith(Number),
      status: sql<EventStatus>`"updated"."status"`,
      hasNext: sql<boolean>`"updated"."has_next"`,
      next: {
        id: sql<number | null>`"chained"."id"`.mapWith(Number),
        accountId: sql<number>`"chained"."account_id"`,
        chatId: sql<string>`"chained"."chat_id"`,
        virtualAgentId: sql<number>`"chained"."virtual_agent_id"`,
        seq: sql<number>`"chained"."seq"`,
        transactionId: sql<string>`"chained"."transaction_id"`,
        body: sql<Record<string, unknown>>`"chained"."body"`.mapWith(events.body),
        attemptCount: sql<number>`"chained"."attempt_count"`,
        lastAttemptNumber: sql<number>`"chained"."last_attempt_number"`,
        lockedUntil: sql<Date>`"chained"."locked_until"`.mapWith(events.lockedUntil),
        webhookUrl: sql<string>`"chained"."webhook_url"`,
        webhookHeaders: sql<Record<string, string>>`"chained"."webhook_headers"`.mapWith(virtualAgents.webhookHeaders),
        signingSecret: sql<string>`"chained"."signing_secret"`,
        previousSigningSecret: sql<string | null>`"chained"."previous_signing_secret"`,
      },
    })
    .from(updated)
    .leftJoin(chained, sql`"chained"."chat_id" = "updated"."chat_id" and "chained"."virtual_agent_id" = "updated"."virtual_agent_id"`);
});

/**
 * Records finished attempts and moves their events on: delivered on HTTP 200; otherwise due again
 * after the schedule's next delay (the chat's later events are parked behind it), or `failed`
 * (dead letter) after the run's last attempt, which lets the chat's later events go and moves the
 * chat to the VA's fallback team if it has one; `superseded` instead of a retry when the chat left
 * the VA during the attempt (see the statement). With `chain`, the next event of each released chat
 * is leased in the same statement (see `next`).
 */
export async function recordAttempts(
  db: Db,
  { attempts, chain = false, leaseMs = defaultLeaseMs() }: { attempts: FinishedAttempt[]; chain?: boolean; leaseMs?: number },
): Promise<AttemptResult[]> {
  if (!attempts.length) return [];
  const plans = attempts.map(({ event, outcome, chain: chainThis = true, uncountedHoldMs }) => {
    let status: EventStatus = 'delivered';
    let retryInMs: number | null = null;
    const counted = outcome.ok || uncountedHoldMs === undefined;
    if (!counted) {
      status = 'pending';
      retryInMs = Math.max(0, Math.round(uncountedHoldMs ?? 0));
    } else if (!outcome.ok) {
      retryInMs = retryDelayAfter(event.attemptCount + 1);
      status = retryInMs === null ? 'failed' : 'pending';
      // 410 stops the VA's webhook (below): the event is held for a new address, not dead-lettered.
      if (outcome.httpStatus === 410) {
        status = 'pending';
        retryInMs ??= retryDelaysMs().at(-1) ?? 0;
      }
      if (retryInMs !== null && outcome.httpStatus !== null && SLOW_DOWN.has(outcome.httpStatus) && outcome.retryAfterMs != null) {
        retryInMs = Math.max(retryInMs, clampRetryAfter(outcome.retryAfterMs));
      }
    }
    const error = outcome.error?.slice(0, MAX_ERROR_CHARS) ?? null;
    return {
      status,
      retryInMs,
      row: {
        event_id: event.id,
        attempt_number: event.lastAttemptNumber + 1,
        started_at: outcome.startedAt.toISOString(),
        duration_ms: outcome.durationMs,
        http_status: outcome.httpStatus,
        error,
        excerpt: outcome.responseExcerpt?.slice(0, EXCERPT_CHARS) ?? null,
        status,
        retry_ms: retryInMs ?? 0,
        last_error: outcome.ok ? null : (error ?? `HTTP ${outcome.httpStatus}`),
        lease: event.lockedUntil.toISOString(),
        chain: chainThis,
        counted,
      },
    };
  });
  const rows = await recordStatement(db).execute({ attempts: JSON.stringify(plans.map((p) => p.row)), chain, leaseMs });
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  await hurryRecovered(db, attempts);
  return Promise.all(
    plans.map(async ({ status: plannedStatus, retryInMs: plannedRetryInMs, row }, i) => {
      const recorded = byId.get(row.event_id);
      // What was written: the plan, or `superseded` for a retry of a chat the VA no longer holds.
      const status = recorded?.status ?? plannedStatus;
      const retryInMs = status === 'pending' ? plannedRetryInMs : null;
      const hasNext = recorded?.hasNext ?? true;
      if (status === 'pending' && recorded && hasNext) await parkLaterEvents(db, { eventId: attempts[i].event.id });
      // Before the bot-down fallback: a chat another VA can take now does not go to people.
      if (recorded && status !== 'superseded' && reroutes(attempts[i].outcome)) await rerouteFrom(db, attempts[i]);
      if (status === 'failed' && recorded) await fallBackFrom(db, attempts[i].event);
      if (attempts[i].outcome.httpStatus === 410 && recorded) await stopWebhook(db, attempts[i].event);
      if (recorded) await noteOutcome(db, attempts[i]);
      const next = recorded?.next?.id ? (recorded.next as ClaimedEvent) : null;
      return { attemptNumber: row.attempt_number, status, retryInMs, leaseHeld: !!recorded, hasNext, next };
    }),
  );
}

/**
 * Fast recovery: a VA whose webhook answers 200 after failures (this event's own earlier attempts,
 * or a run of failures the engine saw) gets its other waiting events due now, rather than each at
 * its back-off slot, up to 30 minutes away. Its failure must not undo the record.
 */
async function hurryRecovered(db: Db, attempts: FinishedAttempt[]): Promise<void> {
  const vas = new Map<number, number>();
  const failing = new Set<number>();
  for (const { event, outcome, recovered } of attempts) {
    if (outcome.ok && (recovered || event.attemptCount > 0)) vas.set(event.virtualAgentId, event.accountId);
    if (!outcome.ok) failing.add(event.virtualAgentId);
  }
  // A webhook that also failed in this batch is not back yet: its retries keep their back-off.
  for (const id of failing) vas.delete(id);
  for (const [virtualAgentId, accountId] of vas) {
    try {
      const n = await hurryWaitingEvents(db, { accountId, virtualAgentId });
      if (n) logger.info('webhook recovered: waiting events made due now', { virtualAgentId, events: n });
    } catch (err) {
      logger.error('could not make the waiting events of a recovered webhook due', { virtualAgentId, err });
    }
  }
}

/**
 * The receiver said the address is gone for good: delivery to it stops (the VA's events are held,
 * not sent) with a reason the admin API shows, until the VA gets another address.
 */
async function stopWebhook(db: Db, event: ClaimedEvent): Promise<void> {
  const stopped = await db
    .update(virtualAgents)
    .set({
      webhookDisabledAt: sql`now()`,
      webhookDisabledReason: 'The webhook answered 410 Gone; set a new webhook URL to resume delivery.',
    })
    .where(
      and(
        eq(virtualAgents.userId, event.virtualAgentId),
        eq(virtualAgents.webhookUrl, event.webhookUrl),
        isNull(virtualAgents.webhookDisabledAt),
      ),
    )
    .returning({ id: virtualAgents.userId });
  if (stopped.length) logger.warn('webhook stopped: it answered 410 Gone', { virtualAgentId: event.virtualAgentId });
}

/** The webhook's long-outage state (webhook-failing.ts); its failure must not undo the record. */
async function noteOutcome(db: Db, { event, outcome }: FinishedAttempt): Promise<void> {
  try {
    await noteWebhookOutcome(db, { virtualAgentId: event.virtualAgentId, ok: outcome.ok });
  } catch (err) {
    logger.error('could not note the webhook state', { virtualAgentId: event.virtualAgentId, err });
  }
}

/**
 * The failures after which a chat the VA never heard of moves to another VA (reroute-chat.ts): no
 * answer (connection refused, a timeout, a refused address), a 5xx, a 410 (the webhook stops), any
 * other answer but 200. Not a 429: the receiver is up and asks to slow down (Retry-After), so the
 * event will reach it.
 */
function reroutes(outcome: SendOutcome): boolean {
  return !outcome.ok && outcome.httpStatus !== 429;
}

/**
 * A failed attempt to a VA that never heard of the chat moves the chat to another VA of its team
 * when one can take it (lib/chats). Its failure must not undo the record.
 */
async function rerouteFrom(db: Db, { event, outcome }: FinishedAttempt): Promise<void> {
  try {
    const moved = await rerouteFromFailingVa(db, { eventId: event.id, error: outcome.error ?? `HTTP ${outcome.httpStatus}` });
    if (moved) logger.info('chat re-routed from a failing webhook', { eventId: event.id, chatId: event.chatId });
  } catch (err) {
    logger.error('re-route from a failing webhook failed', { eventId: event.id, chatId: event.chatId, err });
  }
}

/**
 * A dead-lettered event means the VA is not taking the chat's events: a VA that configured a
 * fallback team hands the chat over to it (lib/chats). Its failure must not undo the record.
 */
async function fallBackFrom(db: Db, event: ClaimedEvent): Promise<void> {
  try {
    await applyBotDownFallback(db, { eventId: event.id });
  } catch (err) {
    logger.error('bot-down fallback failed', { eventId: event.id, chatId: event.chatId, err });
  }
}
