import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, virtualAgents } from '@/db/schema';
import { leaseMs as defaultLeaseMs } from '@/lib/events/schedule';
import { prepared } from '@/platform/util/prepared';
import { isHeadOfLine, isPending } from './head-of-line';

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

/**
 * The lease is the only thing a claim writes, and losing it in a database crash is harmless (the
 * event is simply claimable again), so its commit does not wait for the WAL flush: on a disk with a
 * slow fsync that is most of the time between an outbox commit and the webhook call. Applies to
 * this statement's own transaction only, which is why a claim must not run inside a caller's one.
 */
const commitWithoutFlush = sql`(select set_config('synchronous_commit', 'off', true)) is not null`;

/** Free slots of the event's VA: its entry in the `free` map, else the per-VA limit. */
const freeSlots = sql`coalesce((${sql.placeholder('free')}::jsonb ->> "events"."virtual_agent_id"::text)::int, ${sql.placeholder('perVa')}::int)`;

/**
 * One statement: due, free, head-of-line events of VAs that may be sent to (enabled, webhook not
 * stopped, in `webhook` delivery mode, a free slot in this worker), the oldest `scan` of them locked with SKIP LOCKED; of
 * those, at most each VA's free slots, picked round-robin across accounts and, within an account,
 * across its VAs (so one tenant's or one bot's backlog cannot fill the batch); then leased.
 */
function claimStatement(db: Db, extra: SQL | undefined) {
  const candidates = db.$with('candidates', { id: sql<number>`id` }).as(sql`
    select "events"."id", "events"."account_id", "events"."virtual_agent_id", "events"."next_attempt_at" from "events"
    where ${isPending}
      and "events"."next_attempt_at" <= now()
      and ("events"."locked_until" is null or "events"."locked_until" <= now())
      and ${freeSlots} > 0
      and ${isHeadOfLine}
      and exists (
        select 1 from "virtual_agents" as "va" join "users" as "u" on "u"."id" = "va"."user_id"
        where "va"."user_id" = "events"."virtual_agent_id" and "va"."webhook_disabled_at" is null
          and "va"."delivery_mode" = 'webhook' and "u"."enabled")
      ${extra ? sql`and ${extra}` : sql``}
    order by "events"."next_attempt_at"
    limit ${sql.placeholder('scan')}
    for update of "events" skip locked`);
  const picked = db.$with('picked', { id: sql<number>`id` }).as(sql`
    select "id" from (
      select "id", "va_rank", "next_attempt_at",
        row_number() over (partition by "account_id" order by "va_rank", "next_attempt_at", "id") as "account_rank"
      from (
        select "c"."id", "c"."account_id", "c"."virtual_agent_id", "c"."next_attempt_at",
          row_number() over (partition by "c"."virtual_agent_id" order by "c"."next_attempt_at", "c"."id") as "va_rank"
        from "candidates" as "c") as "ranked"
      where "va_rank" <= coalesce((${sql.placeholder('free')}::jsonb ->> "virtual_agent_id"::text)::int, ${sql.placeholder('perVa')}::int)
    ) as "fair"
    order by "account_rank", "va_rank", "next_attempt_at"
    limit ${sql.placeholder('limit')}`);
  return db
    .with(candidates, picked)
    .update(events)
    .set({ lockedUntil: sql`now() + ${sql.placeholder('leaseMs')}::int * interval '1 millisecond'` })
    .from(virtualAgents)
    .where(and(sql`"events"."id" in (select "id" from "picked")`, eq(virtualAgents.userId, events.virtualAgentId), commitWithoutFlush))
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
      // Only `webhook` VAs are claimed, and they always have one.
      webhookUrl: sql<string>`coalesce(${virtualAgents.webhookUrl}, '')`,
      webhookHeaders: virtualAgents.webhookHeaders,
      signingSecret: virtualAgents.signingSecret,
      previousSigningSecret: previousSecretWhileValid,
    });
}

const claimAny = prepared('delivery_claim_due', (db) => claimStatement(db, undefined));
const claimOfChat = prepared('delivery_claim_due_of_chat', (db) =>
  claimStatement(
    db,
    sql`"events"."chat_id" = ${sql.placeholder('chatId')} and "events"."virtual_agent_id" = ${sql.placeholder('virtualAgentId')}`,
  ),
);

/**
 * Leases up to `limit` events that are due now, each at the head of its chat's line for its VA, so
 * at most one event per chat and VA is in flight (a redelivered one aside). One short statement:
 * nothing is held open while the webhook is called.
 */
export async function claimDueEvents(
  db: Db,
  {
    limit,
    leaseMs = defaultLeaseMs(),
    perVa = limit,
    free = {},
  }: {
    limit: number;
    leaseMs?: number;
    /** Most events of one VA to take; default: no limit beyond `limit`. */
    perVa?: number;
    /** VAs whose free slots differ from `perVa` (0: none taken), by VA user id. */
    free?: Record<number, number>;
  },
): Promise<ClaimedEvent[]> {
  if (limit <= 0) return [];
  // Rows of VAs over their share are locked and passed over; twice the batch leaves room for them.
  const scan = limit * 2;
  return (await claimAny(db).execute({ limit, leaseMs, perVa, free: JSON.stringify(free), scan })) as ClaimedEvent[];
}

/** The same claim restricted to one chat's events for one VA (the Inngest function drains one chat). */
export async function claimDueEventOfChat(
  db: Db,
  { chatId, virtualAgentId, leaseMs = defaultLeaseMs() }: { chatId: string; virtualAgentId: number; leaseMs?: number },
): Promise<ClaimedEvent | null> {
  const [row] = (await claimOfChat(db).execute({
    limit: 1,
    leaseMs,
    chatId,
    virtualAgentId,
    perVa: 1,
    free: '{}',
    scan: 1,
  })) as ClaimedEvent[];
  return row ?? null;
}
