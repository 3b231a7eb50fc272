import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, events, messages, users } from '@/db/schema';
import { assignQueuedChat } from '@/lib/chats/auto-assign';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { withOutbox } from '@/lib/events/with-outbox';
import { newTraceId } from '@/platform/util/ids';
import { emitChatEvents } from './emit-chat-events';

/** Rolls the re-route back: nobody else could take the chat, so nothing changes. */
class NoOtherVa extends Error {}

/**
 * A delivery attempt to a VA failed (record-attempts.ts says which failures count): when the VA
 * never heard of the chat, the chat moves at once to another VA of its team rather than waiting
 * for the retries and the bot-down fallback. All of these must hold, under the chat's lock:
 * - the VA holds the chat, the chat is open, and auto-assign gave it (`chats.auto_assigned`: not
 *   an assignee named in the API, a transfer, a person's pick or a hand-back);
 * - the VA never heard of it: no attempt of any of the chat's events to it answered 200, and it
 *   has not acted on it (no message by it, no typing indicator, no approval request; a PATCH by
 *   it clears `auto_assigned`);
 * - auto-assign, run for VAs only and passing over every VA that was ever given the chat (each
 *   has events of it), finds one that can take it now. Without one nothing changes (the retries,
 *   then the bot-down fallback, as before). Since a VA is never given the chat twice this way, a
 *   chat moves at most once per VA of the team, even when every one of them is down.
 * The failing VA's waiting events of the chat are superseded (the one that failed too, unless it
 * is in flight again: then its attempt's record supersedes it, record-attempts.ts); it gets no
 * `chat.unassigned`, since it was never told of the chat. The new VA gets `chat.assigned`, the
 * transcript an announcement for people, and the live views hear of it through `withOutbox`.
 * Returns whether the chat moved.
 */
export async function rerouteFromFailingVa(db: Db, { eventId, error }: { eventId: number; error: string }): Promise<boolean> {
  // A cheap look without a lock first: during an outage most failed attempts are of chats the VA
  // already heard of, or that were not auto-assigned, and need no transaction.
  const [event] = await db
    .select({ accountId: events.accountId, chatId: events.chatId, vaId: events.virtualAgentId, eventType: events.eventType })
    .from(events)
    .innerJoin(chats, eq(chats.id, events.chatId))
    .where(
      and(
        eq(events.id, eventId),
        eq(chats.assigneeId, events.virtualAgentId),
        eq(chats.autoAssigned, true),
        sql`${chats.status} <> 'closed'`,
      ),
    );
  if (!event) return false;
  try {
    return await withOutbox(db, async (tx) => {
      const chat = await lockChat(tx, { accountId: event.accountId, chatId: event.chatId });
      if (chat.assigneeId !== event.vaId || chat.status === 'closed' || !chat.autoAssigned || chat.typingUntil !== null) return false;
      const [va] = await tx.select({ loginId: users.loginId }).from(users).where(eq(users.id, event.vaId));
      if (!va || (await heardOf(tx, { chatId: chat.id, vaId: event.vaId, loginId: va.loginId }))) return false;
      const now = new Date();
      await tx
        .update(chats)
        .set({ assigneeId: null, status: 'queued', autoAssigned: false, updatedAt: now, queuedAt: now, queueReason: 'rerouted' })
        .where(eq(chats.id, chat.id));
      // The failing VA's waiting events go, with its reply clock; nothing is written to it.
      await emitChatEvents(tx, {
        accountId: event.accountId,
        chat: eventChatOf(chat),
        sequenceBefore: chat.eventSeq,
        plan: { supersedeFor: event.vaId, events: [] },
        at: now,
      });
      const taker = await assignQueuedChat(tx, {
        accountId: event.accountId,
        chatId: chat.id,
        teamId: chat.teamId,
        skill: chat.skill,
        onlyVirtualAgentsNewToChat: true,
      });
      if (!taker) throw new NoOtherVa();
      await tx.insert(messages).values({
        chatId: chat.id,
        accountId: event.accountId,
        transid: newTraceId(),
        type: 'announcement',
        body: {
          text:
            `Virtual agent ${va.loginId} did not accept ${event.eventType} (${error}) and had not seen this chat; ` +
            `chat re-routed to ${taker.loginId}.`,
        },
        authorLoginId: null,
        sentAt: now,
      });
      return true;
    });
  } catch (err) {
    if (err instanceof NoOtherVa) return false;
    throw err;
  }
}

/** The VA heard of the chat: an attempt of one of its events to the VA succeeded, or the VA acted on it. */
async function heardOf(tx: Db, { chatId, vaId, loginId }: { chatId: string; vaId: number; loginId: string }): Promise<boolean> {
  const [row] = await tx
    .select({
      delivered: sql<boolean>`exists (select 1 from "delivery_attempts" as "a" join "events" as "e" on "e"."id" = "a"."event_id"
        where "e"."chat_id" = ${chatId} and "e"."virtual_agent_id" = ${vaId} and "a"."http_status" = 200)`,
      wrote: sql<boolean>`exists (select 1 from "messages" as "m" where "m"."chat_id" = ${chatId} and "m"."author_login_id" = ${loginId})`,
      asked: sql<boolean>`exists (select 1 from "approvals" as "p" where "p"."chat_id" = ${chatId} and "p"."va_user_id" = ${vaId})`,
    })
    .from(users)
    .where(eq(users.id, vaId));
  return !!(row?.delivered || row?.wrote || row?.asked);
}
