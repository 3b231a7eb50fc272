import { and, eq, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, virtualAgents } from '@/db/schema';
import { prepared } from '@/lib/util/prepared';
import { isHeadOfLine, isPending } from './head-of-line';
import { leaseMs as defaultLeaseMs } from './schedule';

/** An event leased to this worker, with what sending it needs. */
export type ClaimedEvent = {
  id: number;
  accountId: number;
  chatId: string;
  virtualAgentId: number;
  seq: number;
  transactionId: string;
  body: Record<string, unknown>;
  /** Attempts so far in this delivery run (a redelivery starts a new run). */
  attemptCount: number;
  /** Highest attempt number recorded so far, over all runs. */
  lastAttemptNumber: number;
  /** The lease; recording the attempt checks it is still ours. */
  lockedUntil: Date;
  webhookUrl: string;
  webhookHeaders: Record<string, string>;
  signingSecret: string;
  /** The secret before a rotation, while its overlap lasts: deliveries carry both signatures. */
  previousSigningSecret: string | null;
};

const previousSecretWhileValid = sql<
  string | null
>`case when ${virtualAgents.previousSigningSecretExpiresAt} > now() then ${virtualAgents.previousSigningSecret} end`;

const isDueAndFree = and(
  isPending,
  lte(events.nextAttemptAt, sql`now()`),
  or(isNull(events.lockedUntil), lte(events.lockedUntil, sql`now()`)),
  isHeadOfLine,
);

/**
 * The lease is the only thing a claim writes, and losing it in a database crash is harmless (the
 * event is simply claimable again), so its commit does not wait for the WAL flush: on a disk with a
 * slow fsync that is most of the time between an outbox commit and the webhook call. Applies to
 * this statement's own transaction only, which is why a claim must not run inside a caller's one.
 */
const commitWithoutFlush = sql`(select set_config('synchronous_commit', 'off', true)) is not null`;

function claimStatement(db: Db, extra: SQL | undefined) {
  // SKIP LOCKED lets concurrent workers (other instances) pass over rows another claim is taking;
  // the lease set in the same statement keeps them off the row once that claim commits.
  const candidates = db
    .select({ id: events.id })
    .from(events)
    .where(and(isDueAndFree, extra))
    .orderBy(events.nextAttemptAt)
    .limit(sql.placeholder('limit'))
    .for('update', { skipLocked: true });
  return db
    .update(events)
    .set({ lockedUntil: sql`now() + ${sql.placeholder('leaseMs')}::int * interval '1 millisecond'` })
    .from(virtualAgents)
    .where(and(inArray(events.id, candidates), eq(virtualAgents.userId, events.virtualAgentId), commitWithoutFlush))
    .returning({
      id: events.id,
      accountId: events.accountId,
      chatId: events.chatId,
      virtualAgentId: events.virtualAgentId,
      seq: events.seq,
      transactionId: events.transactionId,
      body: events.body,
      attemptCount: events.attemptCount,
      lastAttemptNumber: sql<number>`(select coalesce(max("attempt_number"), 0)::int from "delivery_attempts" where "event_id" = "events"."id")`,
      lockedUntil: sql<Date>`${events.lockedUntil}`.mapWith(events.lockedUntil),
      webhookUrl: virtualAgents.webhookUrl,
      webhookHeaders: virtualAgents.webhookHeaders,
      signingSecret: virtualAgents.signingSecret,
      previousSigningSecret: previousSecretWhileValid,
    });
}

const claimAny = prepared('delivery_claim_due', (db) => claimStatement(db, undefined));
const claimOfChat = prepared('delivery_claim_due_of_chat', (db) =>
  claimStatement(db, and(eq(events.chatId, sql.placeholder('chatId')), eq(events.virtualAgentId, sql.placeholder('virtualAgentId')))),
);

/**
 * Leases up to `limit` events that are due now, each at the head of its chat's line for its VA, so
 * at most one event per chat and VA is in flight (a redelivered one aside). One short statement:
 * nothing is held open while the webhook is called.
 */
export async function claimDueEvents(
  db: Db,
  { limit, leaseMs = defaultLeaseMs() }: { limit: number; leaseMs?: number },
): Promise<ClaimedEvent[]> {
  if (limit <= 0) return [];
  return (await claimAny(db).execute({ limit, leaseMs })) as ClaimedEvent[];
}

/** The same claim restricted to one chat's events for one VA (the Inngest function drains one chat). */
export async function claimDueEventOfChat(
  db: Db,
  { chatId, virtualAgentId, leaseMs = defaultLeaseMs() }: { chatId: string; virtualAgentId: number; leaseMs?: number },
): Promise<ClaimedEvent | null> {
  const [row] = (await claimOfChat(db).execute({ limit: 1, leaseMs, chatId, virtualAgentId })) as ClaimedEvent[];
  return row ?? null;
}
