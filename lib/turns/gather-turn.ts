import { and, eq, sql } from 'drizzle-orm';
import type { Message } from '@/contracts/bot/schemas/message';
import { chats, messages } from '@/db/schema';
import { type EventVa, enqueueEvent } from '@/lib/events/enqueue-event';
import { type EventChat, toEventEntry } from '@/lib/events/event-body';
import { noteChatChangeUnsaid, type OutboxTx } from '@/lib/events/with-outbox';
import { newTraceId } from '@/platform/util/ids';
import { preparedInTransaction } from '@/platform/util/prepared';
import { rowsOf } from '@/platform/util/rows-of';
import { CUSTOMER_TYPING_TTL_MS, capOf, dueOf, type TurnChat, type TurnSettings } from './turn-rules';

export type GatheredTurn = { turnId: string; held: boolean; supersedes: string | null };

/**
 * A customer message on a chat a VA holds becomes part of a turn (docs/guide/turns.md), in the
 * transaction that stored it, under the chat's lock:
 *  - the VA's turn window is open (a held `message.received` is the chat's latest event for the VA,
 *    not yet due): the message joins it, and the window's close is decided again;
 *  - otherwise a new turn starts: its `message.received` is written held for the window (or due at
 *    once with the window off), the chat's latest turn becomes it and, with `on_new_turn: supersede`,
 *    the reply the bot had going for the previous turn (typing, an open stream) is superseded.
 * `typing` is whether the customer is still typing, from a channel that knows (the widget); undefined
 * for the others, which wait the fixed window.
 * `va` is the chat's assignee as a VA (`vaUserId`), read by the caller in this transaction.
 */
export async function gatherTurn(
  tx: OutboxTx,
  {
    accountId,
    chat,
    eventChat,
    message,
    messageId,
    typing,
    now,
    vaUserId,
    va,
  }: {
    accountId: number;
    chat: TurnChat;
    vaUserId: number;
    /** The VA as `eventVaOf` read it. */
    va: EventVa;
    eventChat: EventChat;
    message: Message;
    messageId: number;
    typing: boolean | undefined;
    now: Date;
  },
): Promise<GatheredTurn> {
  const settings: TurnSettings = va;
  const typingCols = typing === undefined ? {} : { customerTypingUntil: typing ? new Date(now.getTime() + CUSTOMER_TYPING_TTL_MS) : null };

  if (settings.windowMs > 0) {
    const joined = await joinOpenTurn(tx, { chatId: chat.id, vaUserId, message, windowMs: settings.windowMs, typing, now });
    if (joined) {
      await Promise.all([
        setMessageTurn(tx).execute({ turnId: joined, messageId }),
        typing === undefined ? null : tx.update(chats).set(typingCols).where(eq(chats.id, chat.id)),
      ]);
      return { turnId: joined, held: true, supersedes: null };
    }
  }

  const turnId = `turn_${newTraceId()}`;
  const supersedes = settings.onNewTurn === 'supersede' && chat.turnId ? await supersedeReply(tx, { chat, now }) : false;
  const capAt = new Date(now.getTime() + capOf(settings));
  message.turn_id = turnId;
  const due = settings.windowMs > 0 ? dueOf({ now, capAt, windowMs: settings.windowMs, typing }) : null;
  // The event and the turn's marks on the message and the chat are independent writes under the
  // chat's lock: sent together, one round trip.
  await Promise.all([
    enqueueEvent(tx, {
      accountId,
      chat: eventChat,
      vaUserId,
      va,
      cause: {
        type: 'message.received',
        message,
        turn: {
          id: turnId,
          supersedes: supersedes ? chat.turnId : null,
          held: due ? { until: due.at, capAt, by: due.by } : null,
        },
      },
    }),
    setMessageTurn(tx).execute({ turnId, messageId }),
    typing === undefined
      ? setChatTurn(tx).execute({ turnId, chatId: chat.id })
      : setChatTurnTyping(tx).execute({ turnId, chatId: chat.id, typingUntil: typingCols.customerTypingUntil?.toISOString() ?? null }),
  ]);
  return { turnId, held: due !== null, supersedes: supersedes ? chat.turnId : null };
}

/**
 * Adds the message to the chat's open turn for the VA, if one is open: the held event (locked, so the
 * closer, which skips locked rows, waits for this transaction) gets the message at the end of
 * `payload.messages` and a new due time. Returns the turn's id, or null when none is open (none held,
 * or its window already closed: the caller starts a new turn, enqueueEvent releasing the old one first).
 */
async function joinOpenTurn(
  tx: OutboxTx,
  {
    chatId,
    vaUserId,
    message,
    windowMs,
    typing,
    now,
  }: { chatId: string; vaUserId: number; message: Message; windowMs: number; typing: boolean | undefined; now: Date },
): Promise<string | null> {
  const [open] = rowsOf<{ id: string | number; transaction_id: string; turn_id: string; held_cap_at: string | Date }>(
    await tx.execute(sql`
      select e.id, e.transaction_id, e.turn_id, e.held_cap_at from events e
      where e.id = (select l.id from events l where l.chat_id = ${chatId} and l.virtual_agent_id = ${vaUserId}
          order by l.seq desc limit 1)
        and e.held_until is not null and e.status = 'pending' and e.held_until > clock_timestamp()
      for update`),
  );
  if (!open) return null;
  const due = dueOf({ now, capAt: new Date(open.held_cap_at), windowMs, typing });
  message.turn_id = open.turn_id;
  const entry = toEventEntry(message, open.transaction_id);
  await tx.execute(sql`
    update events set
      body = jsonb_set(body, '{payload,messages}', coalesce(body->'payload'->'messages', '[]'::jsonb) || ${JSON.stringify([entry])}::jsonb),
      held_until = ${due.at.toISOString()}::timestamptz, turn_closed_by = ${due.by}, updated_at = now()
    where id = ${Number(open.id)}`);
  return open.turn_id;
}

/**
 * `on_new_turn: supersede`: if the bot has a reply going for the chat's previous turn (typing on, or a
 * streamed reply open), its streams are closed as `superseded` (later chunks are refused, 2101; the
 * customer's widget withdraws the partial text) and its typing goes off. Returns whether there was one.
 */
async function supersedeReply(tx: OutboxTx, { chat, now }: { chat: TurnChat; now: Date }): Promise<boolean> {
  const typing = chat.typingUntil !== null && new Date(chat.typingUntil) > now;
  const [streams] = await Promise.all([
    supersedeStreams(tx).execute({ chatId: chat.id, at: now.toISOString() }),
    typing ? typingOff(tx).execute({ chatId: chat.id }) : null,
  ]);
  if (!typing && !streams.length) return false;
  // The live views read the chat again: a stream ended and typing may have gone off with this message.
  noteChatChangeUnsaid(tx, chat.id);
  return true;
}

// A customer's every turn runs these, so they are built once: built anew on each turn, the
// statements of a turn cost a fifth of the server's own CPU (docs/decisions.md, "49, eleventh pass").
const p = sql.placeholder;
const setMessageTurn = preparedInTransaction('turn_message', (tx) =>
  tx
    .update(messages)
    .set({ turnId: sql`${p('turnId')}` })
    .where(eq(messages.id, p('messageId'))),
);
const setChatTurn = preparedInTransaction('turn_chat', (tx) =>
  tx
    .update(chats)
    .set({ turnId: sql`${p('turnId')}` })
    .where(eq(chats.id, p('chatId'))),
);
const setChatTurnTyping = preparedInTransaction('turn_chat_typing', (tx) =>
  tx
    .update(chats)
    .set({ turnId: sql`${p('turnId')}`, customerTypingUntil: sql`${p('typingUntil')}::timestamptz` })
    .where(eq(chats.id, p('chatId'))),
);
const supersedeStreams = preparedInTransaction('turn_supersede_streams', (tx) =>
  tx
    .update(messages)
    .set({ streamState: 'superseded', streamEnds: null, streamTouchedAt: sql`${p('at')}::timestamptz` })
    .where(and(eq(messages.chatId, p('chatId')), eq(messages.streamState, 'open')))
    .returning({ id: messages.id }),
);
const typingOff = preparedInTransaction('turn_typing_off', (tx) =>
  tx
    .update(chats)
    .set({ typingUntil: null, typingStatus: null })
    .where(eq(chats.id, p('chatId'))),
);
