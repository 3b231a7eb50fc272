import { eq, sql } from 'drizzle-orm';
import type { UNASSIGN_REASONS } from '@/contracts/bot/schemas/events';
import type { Message } from '@/contracts/bot/schemas/message';
import type { EventType } from '@/contracts/enums';
import { assets, chats, events, users, virtualAgents } from '@/db/schema';
import { newTraceId } from '@/platform/util/ids';
import { preparedInTransaction, preparedSql } from '@/platform/util/prepared';
import { rowsOf } from '@/platform/util/rows-of';
import { buildEventBody, type EventChat, toEventEntry } from './event-body';
import { HELD_XID, releaseOpenTurn } from './held-events';
import { noteEvent, type OutboxTx } from './with-outbox';

export type UnassignReason = (typeof UNASSIGN_REASONS)[number];

/** Where the pending events of a `pull` VA wait: out of the due range the delivery engine scans. */
export const PULL_PARKED = sql`now() + interval '100 years'`;

export type EventCause =
  | {
      type: 'chat.assigned';
      lastMessage: Message | null;
      transcript?: Message[];
      handback?: { by: string; note: string | null; heldSince: Date; messages: Message[] };
    }
  | { type: 'message.received'; message: Message; turn?: TurnOfEvent }
  | { type: 'chat.closed'; outcome: string | null; at: Date }
  | {
      type: 'chat.unassigned';
      reason: UnassignReason;
      at: Date;
      teamId: number;
      assignee: string | null;
      handover?: Record<string, unknown> | null;
    }
  | {
      type: 'approval.decided';
      approvalId: string;
      action: string;
      decision: 'approved' | 'rejected';
      comment: string | null;
      details: Record<string, string>;
      decidedBy: string;
      at: Date;
    }
  | { type: 'approval.expired'; approvalId: string; action: string; at: Date }
  | { type: 'handover.requested'; at: Date };

/** Event types a VA receives whatever it subscribed to: answers to what it asked. */
const ALWAYS_SENT: readonly string[] = ['approval.decided', 'approval.expired', 'handover.requested'];

/**
 * The customer's turn a `message.received` opens (lib/turns/gather-turn.ts): its id, the turn whose
 * reply it superseded, and, while its window is open, when it is due, its cap and what decides it.
 */
type TurnOfEvent = {
  id: string;
  supersedes: string | null;
  held: { until: Date; capAt: Date; by: string } | null;
};

/**
 * What writing an event needs to know of its VA (and, for a customer's turn, its turn settings):
 * one read by primary key, which `gatherTurn` makes once and hands to `enqueueEvent`.
 */
export type EventVa = {
  subscriptions: string[];
  deliveryMode: string;
  enabled: boolean;
  assetAddress: string | null;
  windowMs: number;
  capMs: number | null;
  onNewTurn: 'continue' | 'supersede';
};

const p = sql.placeholder;

const vaStatement = preparedInTransaction('event_va', (tx) =>
  tx
    .select({
      subscriptions: virtualAgents.subscriptions,
      deliveryMode: virtualAgents.deliveryMode,
      enabled: users.enabled,
      assetAddress: sql<string | null>`(select ${assets.address} from ${assets} where ${assets.id} = ${p('assetId')})`,
      windowMs: virtualAgents.turnWindowMs,
      capMs: virtualAgents.turnWindowMaxMs,
      onNewTurn: virtualAgents.onNewTurn,
    })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(virtualAgents.userId, p('vaUserId'))),
);

/** The VA `vaUserId` as `enqueueEvent` reads it (undefined: no such VA); `assetId` is the chat's. */
export async function eventVaOf(
  tx: OutboxTx,
  { vaUserId, assetId }: { vaUserId: number; assetId: number | null },
): Promise<EventVa | undefined> {
  const [va] = await vaStatement(tx).execute({ vaUserId, assetId });
  return va;
}

/**
 * Writes an event for the VA `vaUserId` into the outbox, inside the caller's `withOutbox`
 * transaction (which wakes delivery after commit), if that user is an enabled VA subscribed to
 * the type. Returns the new event's id, or null. `va`: the VA as `eventVaOf` read it in this
 * transaction, when the caller already has it.
 * The chat's `event_seq` is bumped in the event's own insert, so the chat row lock the caller
 * holds also orders the events.
 */
export async function enqueueEvent(
  tx: OutboxTx,
  {
    accountId,
    chat,
    vaUserId,
    cause,
    va: known,
  }: { accountId: number; chat: EventChat; vaUserId: number; cause: EventCause; va?: EventVa },
): Promise<number | null> {
  const va = known ?? (await eventVaOf(tx, { vaUserId, assetId: chat.assetId }));
  if (!va?.enabled || !(va.subscriptions.includes(cause.type) || ALWAYS_SENT.includes(cause.type))) return null;
  const held = cause.type === 'message.received' ? (cause.turn?.held ?? null) : null;
  const transactionId = newTraceId();
  const body = buildEventBody(
    cause.type as EventType,
    { ...chat, assetAddress: va.assetAddress },
    transactionId,
    payloadOf(cause, chat, transactionId),
  );
  // A held turn is always the chat's latest event for the VA: it closes before anything follows it.
  // Its release and the insert go together (one round trip), and run in that order.
  const [, inserted] = await Promise.all([
    releaseOpenTurn(tx, { chatId: chat.id, vaUserId, reason: 'event' }),
    insertEventStatement(tx).execute({
      transactionId,
      accountId,
      chatId: chat.id,
      vaUserId,
      eventType: cause.type,
      body: JSON.stringify(body),
      held: held !== null,
      parked: held !== null || va.deliveryMode === 'pull',
      turnId: cause.type === 'message.received' && cause.turn ? cause.turn.id : null,
      heldUntil: held ? held.until.toISOString() : null,
      heldCapAt: held ? held.capAt.toISOString() : null,
      turnClosedBy: held ? held.by : null,
    }),
  ]);
  const [row] = rowsOf<{ id: string | number }>(inserted);
  if (!row) throw new Error(`chat ${chat.id}: no such chat to write its event`);
  const id = Number(row.id);
  noteEvent(tx, id, vaUserId);
  return id;
}

/**
 * The event's insert, with the chat's `event_seq` bumped in the same statement (its number), built
 * once:
 * - `stream_xid`, its place in the VA's pull order: this transaction's id, or the previous event of
 *   the chat for this VA if that one's is higher (the chat row lock orders them; see
 *   db/schema/events.ts); a held turn's is HELD_XID until its release;
 * - `next_attempt_at`: behind an event of this chat that waits for a retry, the new one cannot go
 *   before that retry, so it starts parked there (the chat's latest event carries the latest such
 *   time), out of the due range that delivery scans (lib/delivery/park-later-events.ts). A `pull`
 *   VA's events, and a held turn, wait out of the due range (`parked`) until read or released.
 */
export const insertEventSql = sql`
    with seq as (update ${chats} set event_seq = event_seq + 1 where id = ${p('chatId')} returning event_seq)
    insert into ${events} (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, stream_xid,
      next_attempt_at, turn_id, held_until, held_cap_at, turn_closed_by)
    select ${p('transactionId')}, ${p('accountId')}::int, ${p('chatId')}, ${p('vaUserId')}::int, ${p('eventType')}::event_type,
      seq.event_seq, ${p('body')}::jsonb,
      case when ${p('held')}::boolean then ${sql.raw(String(HELD_XID))} else greatest((pg_current_xact_id()::text)::bigint, (
        select prev.stream_xid from ${events} prev
        where prev.chat_id = ${p('chatId')} and prev.virtual_agent_id = ${p('vaUserId')}::int
        order by prev.seq desc limit 1)) end,
      case when ${p('parked')}::boolean then ${PULL_PARKED} else greatest(now(), (
        select case when prev.status = 'pending' then prev.next_attempt_at end from ${events} prev
        where prev.chat_id = ${p('chatId')} and prev.virtual_agent_id = ${p('vaUserId')}::int
        order by prev.seq desc limit 1)) end,
      ${p('turnId')}, ${p('heldUntil')}::timestamptz, ${p('heldCapAt')}::timestamptz, ${p('turnClosedBy')}
    from seq
    returning id`;
const insertEventStatement = preparedSql('enqueue_event', insertEventSql);

function payloadOf(cause: EventCause, chat: EventChat, transactionId: string): Record<string, unknown> {
  switch (cause.type) {
    case 'chat.assigned':
      return {
        skill: chat.skill,
        messages: cause.lastMessage ? [toEventEntry(cause.lastMessage, transactionId)] : [],
        ...(cause.transcript ? { transcript: cause.transcript.map((m) => toEventEntry(m, transactionId)) } : {}),
        ...(cause.handback
          ? {
              handback: {
                by: cause.handback.by,
                note: cause.handback.note,
                held_since: cause.handback.heldSince.toISOString(),
                messages: cause.handback.messages.map((m) => toEventEntry(m, transactionId)),
              },
            }
          : {}),
      };
    case 'message.received':
      return {
        messages: [toEventEntry(cause.message, transactionId)],
        ...(cause.turn ? { turn_id: cause.turn.id, ...(cause.turn.supersedes ? { supersedes_turn: cause.turn.supersedes } : {}) } : {}),
      };
    case 'chat.closed':
      return { timestamp: cause.at.toISOString(), chat_outcome: cause.outcome ?? '' };
    case 'chat.unassigned':
      return {
        timestamp: cause.at.toISOString(),
        reason: cause.reason,
        team_id: cause.teamId,
        assignee: cause.assignee,
        ...(cause.handover ? { handover: cause.handover } : {}),
      };
    case 'approval.decided':
      return {
        approval_id: cause.approvalId,
        action: cause.action,
        decision: cause.decision,
        comment: cause.comment,
        details: cause.details,
        decided_by: cause.decidedBy,
        decided_at: cause.at.toISOString(),
      };
    case 'approval.expired':
      return { approval_id: cause.approvalId, action: cause.action, expired_at: cause.at.toISOString() };
    case 'handover.requested':
      return { requested_at: cause.at.toISOString(), source: 'person_request' };
  }
}
