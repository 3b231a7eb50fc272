import { eq, getTableColumns, type Placeholder, sql } from 'drizzle-orm';
import type { Message, MessageInput } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { replyClockStart, replyClockStop } from '@/lib/chats/reply-clock';
import { requireHeld } from '@/lib/chats/require-held';
import { eventVaOf } from '@/lib/events/enqueue-event';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { gatherTurn } from '@/lib/turns/gather-turn';
import { replyTurnOf } from '@/lib/turns/reply-turn';
import { pokeTurnCloser } from '@/lib/turns/turn-closer';
import { ApiError, describeFields, type FieldError } from '@/platform/errors';
import { type Idempotency, withIdempotency } from '@/platform/idempotency/with-idempotency';
import { newTraceId } from '@/platform/util/ids';
import { preparedInTransaction } from '@/platform/util/prepared';
import { fillQuickReplyPayloads } from './fill-quick-reply-payloads';
import { toMessageView } from './message-view';
import { normalizeMessage } from './normalize-message';
import { plainOutbounds } from './plain-outbound';

export type AppendMessageInput = {
  accountId: number;
  chatId: string;
  /** Login ID written as the author of outbound messages and announcements. */
  actorLoginId: string | null;
  /**
   * The VA writing through the bot API: an `outbound` message needs the chat to be assigned to it
   * (2043). Inbound (an integration relaying the customer) and announcements (notes for agents,
   * such as a handover summary) stay open to every VA of the account. Unset: not restricted.
   */
  actorUserId?: number | null;
  input: MessageInput;
  idempotency?: Idempotency;
  /**
   * Inbound from a channel that knows whether the customer is still typing (the widget): the turn
   * window closes early when they are not (lib/turns). Undefined: no typing signal, the fixed window.
   */
  customerTyping?: boolean;
};

/**
 * Adds a message to a chat. An inbound message on a chat assigned to a VA emits
 * `message.received`. Closed chats take announcements only (2040 otherwise); a VA's outbound
 * message needs the chat to be its own (2043).
 */
export async function appendMessage(
  db: Db,
  { accountId, chatId, actorLoginId, actorUserId = null, input, idempotency, customerTyping }: AppendMessageInput,
): Promise<{ message: Message; replayed: boolean; stored?: StoredMessage }> {
  if (!idempotency?.key && isPlainOutbound(input)) {
    return appendPlainOutbound(db, { accountId, chatId, actorLoginId, actorUserId, input });
  }
  let held = false;
  let written: StoredMessage | undefined;
  const out = await withOutbox(db, (tx) =>
    withIdempotency(tx, { accountId, idempotency }, async () => {
      written = undefined;
      const chat = await lockChat(tx, { accountId, chatId });
      if (chat.status === 'closed' && input.type !== 'announcement') {
        throw new ApiError(2040, { detail: 'only announcements can be added to a closed chat' });
      }
      if (input.type === 'outbound') requireHeld(chat, actorUserId);
      const { stream, in_reply_to_turn: replyTo, ...rest } = input;
      const turnCols = await replyTurnOf(tx, { chat, type: input.type, replyTo });
      if (stream) checkStreamOpening(rest);
      const body = await fillQuickReplyPayloads(tx, {
        chatId,
        body: normalizeMessage(stream && rest.text === undefined ? { ...rest, text: '' } : rest, chat.channel),
      });
      if (stream) body.text ??= '';
      const now = new Date();
      // Independent writes under the chat's lock, sent together: one round trip instead of two
      // (postgres.js pipelines statements given to the transaction's connection at once).
      // A message the livechat customer sees (a streamed reply's opening too) also returns the
      // last one before it (read under the lock, before this insert: a statement's subqueries do
      // not see its own rows), so this process's widget streams can send it on without a read
      // (ChatChange in chat-changes.ts).
      const hinted = chat.channel === 'livechat' && input.type !== 'announcement';
      // A customer's message to a chat someone holds also reads the assignee as a VA (its turn
      // settings and what its event needs) in the same round trip: the chat is locked from here to
      // the commit, and every round trip under the lock delays the pulling bots' next event
      // (lib/pull/read-event-page.ts gives an event only once older transactions have ended).
      const vaUserId = input.type === 'inbound' ? chat.assigneeId : null;
      const [[row], , va] = await Promise.all([
        insertMessage[hinted ? 1 : 0](tx).execute({
          chatId,
          accountId,
          transid: newTraceId(),
          type: input.type,
          body,
          authorLoginId: input.type === 'inbound' ? null : actorLoginId,
          sentAt: input.timestamp ? new Date(input.timestamp) : now,
          turnId: turnCols.turnId ?? null,
          stale: turnCols.stale ?? null,
          streamState: stream ? 'open' : null,
          streamSeq: stream ? 0 : null,
          streamEnds: stream ? `{${String(body.text ?? '').length}}` : null,
          streamTouchedAt: stream ? now.toISOString() : null,
        }),
        touchChat[input.type === 'inbound' ? 'inbound' : input.type === 'outbound' ? 'outbound' : 'other'](tx).execute({
          chatId,
          at: now.toISOString(),
        }),
        vaUserId !== null ? eventVaOf(tx, { vaUserId, assetId: chat.assetId }) : undefined,
      ]);
      const { prevId, ...stored } = row;
      const visible = { id: stored.id, type: stored.type, body: stored.body, sentAt: stored.sentAt };
      written = visible;
      const message = toMessageView(stored);
      if (hinted) {
        noteChatChange(tx, chatId, accountId, {
          kind: stream ? 'stream-opened' : 'message',
          message: visible,
          prevId: Number(prevId),
          typingOff: input.type === 'outbound' && chat.typingUntil !== null && new Date(chat.typingUntil) > now,
        });
      }
      // Held by a person (no such VA): no event and no turn.
      // gatherTurn names the turn on `message` itself.
      if (vaUserId !== null && va) {
        const turn = await gatherTurn(tx, {
          accountId,
          chat,
          vaUserId,
          va,
          eventChat: eventChatOf(chat),
          message,
          messageId: stored.id,
          typing: customerTyping,
          now,
        });
        held = turn.held;
      }
      return message;
    }),
  );
  // The turn's window closes on time in this process (another instance's closer sees it too).
  if (held) pokeTurnCloser();
  return { message: out.result, replayed: out.replayed, stored: out.replayed ? undefined : written };
}

/** The row a message was written as (what the widget's view of it needs); absent for a replay. */
type StoredMessage = { id: number; type: string; body: Record<string, unknown>; sentAt: Date };

/**
 * The chat's last message the customer sees (0 for none), from the transcript index read backwards;
 * in the insert's RETURNING, the one before the new message.
 */
export const lastCustomerMessageId = (chatId: string | Placeholder) =>
  sql<number>`(select coalesce(max(prev.id), 0) from ${messages} prev where prev.chat_id = ${chatId} and prev.type in ('inbound', 'outbound'))`;

const p = sql.placeholder;

/**
 * The message's insert, built once (a Drizzle insert of every column cost about as much CPU to
 * build as to run): every column given, null where the message has none. The hinted form also
 * returns the last customer-visible message before it (see `hinted` above).
 */
const insertMessage = [false, true].map((hinted) =>
  preparedInTransaction(hinted ? 'append_message_hinted' : 'append_message', (tx) =>
    tx
      .insert(messages)
      .values({
        chatId: p('chatId'),
        accountId: p('accountId'),
        transid: p('transid'),
        type: p('type'),
        body: p('body'),
        authorLoginId: p('authorLoginId'),
        sentAt: p('sentAt'),
        turnId: p('turnId'),
        stale: p('stale'),
        streamState: p('streamState'),
        streamSeq: p('streamSeq'),
        // Nullable columns whose own encoders do not take null: cast from the value as sent.
        streamEnds: sql`${p('streamEnds')}::integer[]`,
        streamTouchedAt: sql`${p('streamTouchedAt')}::timestamptz`,
      })
      .returning({ ...getTableColumns(messages), prevId: hinted ? lastCustomerMessageId(p('chatId')) : sql<number>`0` }),
  ),
);

/**
 * The chat row's update beside the insert, one per kind of message. The reply clock rides on it
 * (reply-clock.ts): a customer message starts it (when a VA holds the chat), any outbound message
 * stops it and clears typing.
 */
const touchChat = {
  inbound: preparedInTransaction('append_message_inbound_chat', (tx) =>
    tx
      .update(chats)
      .set({ updatedAt: sql`${p('at')}::timestamptz`, ...replyClockStart(p('at')) })
      .where(eq(chats.id, p('chatId'))),
  ),
  outbound: preparedInTransaction('append_message_outbound_chat', (tx) =>
    tx
      .update(chats)
      .set({ updatedAt: sql`${p('at')}::timestamptz`, ...replyClockStop })
      .where(eq(chats.id, p('chatId'))),
  ),
  other: preparedInTransaction('append_message_other_chat', (tx) =>
    tx
      .update(chats)
      .set({ updatedAt: sql`${p('at')}::timestamptz` })
      .where(eq(chats.id, p('chatId'))),
  ),
};

/** A streamed reply is an outbound text message: `text` (optional, the first words) and nothing else. */
function checkStreamOpening(input: Omit<MessageInput, 'stream'>): void {
  const errors: FieldError[] = [];
  if (input.type !== 'outbound') errors.push({ field: 'stream', message: `only outbound messages stream (this one is ${input.type})` });
  const { type: _t, text: _x, timestamp: _s, livechat_sub_type, ...others } = input;
  for (const k of Object.keys(others)) errors.push({ field: k, message: 'a streamed reply carries text only' });
  if (livechat_sub_type !== undefined && livechat_sub_type !== 'text')
    errors.push({ field: 'livechat_sub_type', message: 'a streamed reply carries text only' });
  if (errors.length) throw new ApiError(2020, { detail: describeFields(errors), errors });
}

/**
 * A bot's everyday reply: outbound, text or an attachment, not streamed, naming no turn. Its body
 * does not depend on the chat's channel (the fields that do are absent), so it is checked before
 * the chat is read, and it is written in one statement (`appendPlainOutbound`).
 */
function isPlainOutbound(input: MessageInput): boolean {
  if (input.type !== 'outbound' || input.stream || input.in_reply_to_turn !== undefined) return false;
  for (const key of Object.keys(input)) if (!PLAIN_OUTBOUND_KEYS.has(key)) return false;
  return true;
}
const PLAIN_OUTBOUND_KEYS = new Set(['type', 'text', 'attachment', 'timestamp', 'stream', 'in_reply_to_turn']);

/**
 * A plain outbound message (`isPlainOutbound`) in one statement, its own transaction: the chat
 * locked, the message inserted and the chat's row touched (the reply clock stopped, typing off), as
 * the general path does in a transaction of three round trips; a chat that cannot take it (none,
 * closed, not the VA's) is read from the statement's answer and refused as there.
 */
async function appendPlainOutbound(
  db: Db,
  { accountId, chatId, actorLoginId, actorUserId, input }: Omit<AppendMessageInput, 'idempotency' | 'customerTyping'>,
): Promise<{ message: Message; replayed: boolean; stored?: StoredMessage }> {
  const { stream: _s, in_reply_to_turn: _t, ...rest } = input;
  // The channel only matters to fields a plain message does not carry (normalizeMessage).
  const body = normalizeMessage(rest, 'api');
  const now = new Date();
  let stored: StoredMessage | undefined;
  const row = await withOutbox(
    db,
    async (tx) => {
      const r = await plainOutbounds.run(db, {
        chatId,
        accountId,
        actor: actorUserId ?? null,
        transid: newTraceId(),
        body,
        authorLoginId: actorLoginId,
        sentAt: (input.timestamp ? new Date(input.timestamp) : now).toISOString(),
        at: now.toISOString(),
      });
      if (r?.id != null) {
        stored = { id: r.id, type: 'outbound', body: r.body, sentAt: new Date(r.sentAt) };
        if (r.channel === 'livechat') {
          noteChatChange(tx, chatId, accountId, {
            kind: 'message',
            message: stored,
            prevId: Number(r.prevId),
            typingOff: r.typingUntil !== null && new Date(r.typingUntil) > now,
          });
        } else noteChatChange(tx, chatId, accountId);
      }
      return r;
    },
    { oneStatement: true },
  );
  if (!row) throw new ApiError(2031);
  if (!stored) {
    if (row.status === 'closed') throw new ApiError(2040, { detail: 'only announcements can be added to a closed chat' });
    requireHeld({ id: chatId, assigneeId: row.assigneeId }, actorUserId ?? null);
    throw new Error(`chat ${chatId}: the message was not written and no reason was found`);
  }
  const message = toMessageView({
    transid: row.transid,
    type: 'outbound',
    body: row.body,
    authorLoginId: row.authorLoginId,
    sentAt: row.sentAt,
  });
  return { message, replayed: false, stored };
}
