import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import type { EventStatus } from '@/contracts/enums';
import { prepared } from '@/lib/util/prepared';
import type { ClaimedEvent } from './claim-due-events';
import { retryDelayAfter } from './schedule';
import { EXCERPT_CHARS, type SendOutcome } from './send-webhook';

export type AttemptResult = {
  attemptNumber: number;
  status: EventStatus;
  /** When the next attempt is due (status `pending`); null otherwise. */
  retryInMs: number | null;
  /** False when the lease ran out before the attempt was recorded and another worker took the event. */
  leaseHeld: boolean;
  /** Whether a later event of the chat for the VA was pending when the attempt was recorded. */
  hasNext: boolean;
};

const MAX_ERROR_CHARS = 1000;

// One statement: the attempt row (a CTE) and the event's new state, so recording costs one round
// trip and no transaction is left open.
const recordStatement = prepared('delivery_record_attempt', (db) => {
  const attempt = db.$with('attempt', { eventId: sql<number>`event_id` }).as(sql`
    insert into "delivery_attempts" ("event_id", "attempt_number", "started_at", "duration_ms", "http_status", "error", "response_excerpt")
    values (${sql.placeholder('eventId')}, ${sql.placeholder('attemptNumber')}, ${sql.placeholder('startedAt')}::timestamptz,
      ${sql.placeholder('durationMs')}, ${sql.placeholder('httpStatus')}::int, ${sql.placeholder('error')}::text, ${sql.placeholder('excerpt')}::text)
    returning "event_id"`);
  const status = sql`${sql.placeholder('status')}::event_status`;
  return db
    .with(attempt)
    .update(events)
    .set({
      status: sql`${status}`,
      attemptCount: sql`${events.attemptCount} + 1`,
      nextAttemptAt: sql`case when ${status} = 'pending' then now() + ${sql.placeholder('retryInMs')}::int * interval '1 millisecond' else ${events.nextAttemptAt} end`,
      lockedUntil: null,
      lastError: sql`${sql.placeholder('lastError')}::text`,
      deliveredAt: sql`case when ${status} = 'delivered' then now() end`,
      failedAt: sql`case when ${status} = 'failed' then now() end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(events.id, sql.placeholder('eventId')), sql`${events.lockedUntil} = ${sql.placeholder('lease')}::timestamptz`))
    .returning({
      id: events.id,
      hasNext: sql<boolean>`exists (
        select 1 from "events" as "later"
        where "later"."chat_id" = "events"."chat_id"
          and "later"."virtual_agent_id" = "events"."virtual_agent_id"
          and "later"."status" = 'pending'
          and "later"."seq" > "events"."seq")`,
    });
});

/**
 * Records one attempt of a claimed event and moves the event on: delivered on HTTP 200, otherwise
 * due again after the schedule's next delay, or `failed` (dead letter) after the run's last attempt,
 * which lets the chat's later events go.
 */
export async function recordAttempt(db: Db, { event, outcome }: { event: ClaimedEvent; outcome: SendOutcome }): Promise<AttemptResult> {
  const attemptNumber = event.lastAttemptNumber + 1;
  let status: EventStatus = 'delivered';
  let retryInMs: number | null = null;
  if (!outcome.ok) {
    retryInMs = retryDelayAfter(event.attemptCount + 1);
    status = retryInMs === null ? 'failed' : 'pending';
  }
  const error = outcome.error?.slice(0, MAX_ERROR_CHARS) ?? null;
  const rows = await recordStatement(db).execute({
    eventId: event.id,
    attemptNumber,
    startedAt: outcome.startedAt.toISOString(),
    durationMs: outcome.durationMs,
    httpStatus: outcome.httpStatus,
    error,
    excerpt: outcome.responseExcerpt?.slice(0, EXCERPT_CHARS) ?? null,
    status,
    retryInMs: retryInMs ?? 0,
    lastError: outcome.ok ? null : (error ?? `HTTP ${outcome.httpStatus}`),
    lease: event.lockedUntil.toISOString(),
  });
  return { attemptNumber, status, retryInMs, leaseHeld: rows.length > 0, hasNext: rows[0]?.hasNext ?? true };
}
