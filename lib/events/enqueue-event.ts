import { eq, sql } from 'drizzle-orm';
import type { UNASSIGN_REASONS } from '@/contracts/bot/schemas/events';
import type { Message } from '@/contracts/bot/schemas/message';
import type { EventType } from '@/contracts/enums';
import { assets, chats, events, users, virtualAgents } from '@/db/schema';
import { newTraceId } from '@/platform/util/ids';
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
 * Writes an event for the VA `vaUserId` into the outbox, inside the caller's `withOutbox`
 * transaction (which wakes delivery after commit), if that user is an enabled VA subscribed to
 * the type. Returns the new event's id, or null.
 * The chat's `event_seq` is bumped in the same statement order, so the chat row lock the caller
 * holds also orders the events.
 */
export async function enqueueEvent(
  tx: OutboxTx,
  { accountId, chat, vaUserId, cause }: { accountId: number; chat: EventChat; vaUserId: number; cause: EventCause },
): Promise<number | null> {
  const [va] = await tx
    .select({
      subscriptions: virtualAgents.subscriptions,
      deliveryMode: virtualAgents.deliveryMode,
      enabled: users.enabled,
      assetAddress: sql<string | null>`(select ${assets.address} from ${assets} where ${assets.id} = ${chat.assetId})`,
    })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(virtualAgents.userId, vaUserId));
  if (!va?.enabled || !(va.subscriptions.includes(cause.type) || ALWAYS_SENT.includes(cause.type))) return null;
  // A held turn is always the chat's latest event for the VA: it closes before anything follows it.
  await releaseOpenTurn(tx, { chatId: chat.id, vaUserId, reason: 'event' });
  const held = cause.type === 'message.received' ? (cause.turn?.held ?? null) : null;

  const [{ seq }] = await tx
    .update(chats)
    .set({ eventSeq: sql`${chats.eventSeq} + 1` })
    .where(eq(chats.id, chat.id))
    .returning({ seq: chats.eventSeq });
  const transactionId = newTraceId();
  const body = buildEventBody(
    cause.type as EventType,
    { ...chat, assetAddress: va.assetAddress },
    transactionId,
    payloadOf(cause, chat, transactionId),
  );
  const [row] = await tx
    .insert(events)
    .values({
      transactionId,
      accountId,
      chatId: chat.id,
      virtualAgentId: vaUserId,
      eventType: cause.type,
      seq,
      body,
      // Its place in the VA's pull order: this transaction's id, or the previous event of the chat
      // for this VA if that one's is higher (the chat row lock orders them; see db/schema/events.ts).
      streamXid: held
        ? HELD_XID
        : sql`greatest((pg_current_xact_id()::text)::bigint, (
        select ${events.streamXid} from ${events}
        where ${events.chatId} = ${chat.id} and ${events.virtualAgentId} = ${vaUserId}
        order by ${events.seq} desc limit 1))`,
      // Behind an event of this chat that waits for a retry, the new one cannot go before that
      // retry: it starts parked there (the chat's latest event carries the latest such time), out
      // of the due range that delivery scans. See lib/delivery/park-later-events.ts.
      // A `pull` VA's events are never claimed: they wait out of the due range until read.
      nextAttemptAt:
        held || va.deliveryMode === 'pull'
          ? PULL_PARKED
          : sql`greatest(now(), (
        select case when ${events.status} = 'pending' then ${events.nextAttemptAt} end from ${events}
        where ${events.chatId} = ${chat.id} and ${events.virtualAgentId} = ${vaUserId}
        order by ${events.seq} desc limit 1))`,
      ...(cause.type === 'message.received' && cause.turn ? { turnId: cause.turn.id } : {}),
      ...(held ? { heldUntil: held.until, heldCapAt: held.capAt, turnClosedBy: held.by } : {}),
    })
    .returning({ id: events.id });
  noteEvent(tx, row.id, vaUserId);
  return row.id;
}

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
