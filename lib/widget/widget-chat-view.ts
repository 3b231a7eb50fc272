import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { WidgetChat, WidgetMessage, WidgetTyping } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { approvals, chats, customers, messages, users } from '@/db/schema';
import { displayNameOf } from '@/lib/agent/display-name';
import { cursorRefusal } from '@/lib/chats/follow-transcript';
import { wellFormedBody } from '@/lib/chats/message-view';
import { ApiError } from '@/platform/errors';
import { prepared } from '@/platform/util/prepared';
import type { WidgetVisitorAuth } from './types';

/**
 * The customer's own chat: on their app, on livechat, with them as the customer. Anyone else's
 * chat is "not found" (2031), exactly as a chat that does not exist.
 */
export async function loadOwnChat(db: Db, { visitor, chatId }: { visitor: WidgetVisitorAuth; chatId: string }): Promise<WidgetChat> {
  return (await loadOwnChatLive(db, { visitor, chatId })).chat;
}

/**
 * The customer's chat with what the widget shows of it: who holds it, the VA's typing, its place in
 * the queue (only while waiting: the chats queued before it in its team, a range of
 * chats_queue_idx) and whether an approval is pending (approvals_chat_idx). One row by primary key.
 */
export function widgetChatQuery(db: Db, { visitor, chatId }: { visitor: WidgetVisitorAuth; chatId: string }) {
  return widgetChatSelect(db, { chatId, accountId: visitor.accountId, assetId: visitor.assetId, livechatId: visitor.livechatId });
}

type Value<T> = T | Placeholder;

type WidgetChatValues = { chatId: Value<string>; accountId: Value<number>; assetId: Value<number>; livechatId: Value<string> };

const widgetChatFields = {
  id: chats.id,
  status: chats.status,
  assigneeKind: users.kind,
  assigneeName: users.name,
  assigneeDisplayName: users.displayName,
  typingUntil: chats.typingUntil,
  typingStatus: chats.typingStatus,
  queuePosition: sql<number | null>`case when ${chats.status} = 'queued' and ${chats.assigneeId} is null then (
        select count(*)::int + 1 from ${chats} q
        where q.team_id = ${chats.teamId} and q.status = 'queued' and q.assignee_id is null
          and (q.queued_at, q.id) < (${chats.queuedAt}, ${chats.id})) end`,
  approvalPending: sql<boolean>`exists (select 1 from ${approvals} a where a.chat_id = ${chats.id} and a.status = 'pending')`,
};

/** The chat's row by its key, only when it is this customer's livechat chat; `extra` adds columns. */
function widgetChatSelect<Extra extends Record<string, SQL> = Record<never, never>>(db: Db, values: WidgetChatValues, extra?: Extra) {
  const { chatId, accountId, assetId, livechatId } = values;
  return db
    .select({ ...widgetChatFields, ...(extra as Extra) })
    .from(chats)
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .leftJoin(users, eq(users.id, chats.assigneeId))
    .where(
      and(
        eq(chats.id, chatId),
        eq(chats.accountId, accountId),
        eq(chats.assetId, assetId),
        eq(chats.channel, 'livechat'),
        eq(customers.destinationId, livechatId),
      ),
    );
}

const widgetChatValues = {
  chatId: sql.placeholder('chatId'),
  accountId: sql.placeholder('accountId'),
  assetId: sql.placeholder('assetId'),
  livechatId: sql.placeholder('livechatId'),
};

/** `widgetChatQuery` prepared once per database handle: every message a customer sends reads it. */
const widgetChatStatement = prepared('widget_chat', (db) => widgetChatSelect(db, widgetChatValues));

/**
 * The same with the chat's newest message id (`messages_chat_idx`, newest first), for a stream that
 * resumes after a message: its cursor is checked in the same round trip as the chat.
 */
export function widgetChatResumeQuery(db: Db, values: WidgetChatValues = widgetChatValues) {
  return widgetChatSelect(db, values, {
    newestMessageId: sql<number | string | null>`(select max(m.id) from ${messages} m where m.chat_id = ${chats.id})`,
  });
}
const widgetChatResumeStatement = prepared('widget_chat_resume', (db) => widgetChatResumeQuery(db));

/**
 * The customer's own chat with what the live view adds: the VA's typing indicator as the customer
 * sees it (only while it is on and the chat is open). One read by primary key. With `after` (a
 * stream that resumes after that message), the same read also refuses a cursor past the chat's
 * newest message (2087), after the chat is found to be theirs (2031 first).
 */
export async function loadOwnChatLive(
  db: Db,
  { visitor, chatId, after = 0, now = new Date() }: { visitor: WidgetVisitorAuth; chatId: string; after?: number; now?: Date },
): Promise<{ chat: WidgetChat; typing: WidgetTyping }> {
  const values = { chatId, accountId: visitor.accountId, assetId: visitor.assetId, livechatId: visitor.livechatId };
  const [row] = after > 0 ? await widgetChatResumeStatement(db).execute(values) : await widgetChatStatement(db).execute(values);
  if (!row) throw new ApiError(2031, { detail: 'no such chat for this customer' });
  if ('newestMessageId' in row) {
    const refusal = cursorRefusal(after, row.newestMessageId === null ? null : Number(row.newestMessageId));
    if (refusal) throw refusal;
  }
  const chat = toWidgetChat(row);
  return { chat, typing: typingView(chat, row.typingUntil ? new Date(row.typingUntil) : null, row.typingStatus ?? null, now) };
}

export const TYPING_OFF: WidgetTyping = { on: false, status_text: null, expires_at: null, seconds_left: 0 };

/** The VA's typing as the customer sees it: on only while the chat is open and its time has not run out. */
export function typingView(chat: WidgetChat, until: Date | null, statusText: string | null, now = new Date()): WidgetTyping {
  if (chat.status !== 'open' || until === null || until.getTime() <= now.getTime()) return TYPING_OFF;
  return {
    on: true,
    status_text: statusText,
    expires_at: until.toISOString(),
    seconds_left: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  };
}

/** Two views of a chat differ in something the customer sees (the stream sends `chat` again). */
export function sameWidgetChat(a: WidgetChat, b: WidgetChat): boolean {
  return (
    a.status === b.status &&
    a.handled_by === b.handled_by &&
    a.responder?.kind === b.responder?.kind &&
    a.responder?.name === b.responder?.name &&
    a.queue_position === b.queue_position &&
    a.approval_pending === b.approval_pending
  );
}

/**
 * The chat as the customer sees it. A person answers under the name they chose to show customers
 * (lib/agent/display-name.ts); a virtual agent under its name, said to be one.
 */
function toWidgetChat(row: {
  id: string;
  status: string;
  assigneeKind: string | null;
  assigneeName: string | null;
  assigneeDisplayName: string | null;
  queuePosition: number | null;
  approvalPending: boolean;
}): WidgetChat {
  const closed = row.status === 'closed';
  const kind = row.assigneeKind === null ? null : row.assigneeKind === 'virtual_agent' ? 'bot' : 'person';
  return {
    chat_id: row.id,
    status: closed ? 'closed' : 'open',
    handled_by: kind === null ? 'waiting' : kind,
    responder:
      closed || kind === null || row.assigneeName === null
        ? null
        : {
            kind,
            name: kind === 'person' ? displayNameOf({ displayName: row.assigneeDisplayName, name: row.assigneeName }) : row.assigneeName,
          },
    queue_position: closed || kind !== null ? null : (row.queuePosition ?? null),
    approval_pending: !closed && Boolean(row.approvalPending),
  };
}

type Choice = { request_identifier: string; options: { title: string }[] };

/**
 * A stored message as the customer sees it. Only the customer's own messages and what was sent to
 * them reach here (announcements never do); payloads, authors and every other internal detail stay out.
 */
export function toWidgetMessage(row: {
  id: number;
  type: string;
  body: Record<string, unknown>;
  sentAt: Date | string;
  streamState?: string | null;
}): WidgetMessage {
  // A reply superseded by the customer's next turn (lib/turns) is withdrawn: its partial text is not the answer.
  if (row.streamState === 'superseded') {
    return { id: row.id, from: 'business', withdrawn: true, timestamp: new Date(row.sentAt).toISOString() };
  }
  const body = wellFormedBody(row.body) as {
    text?: string;
    attachment?: WidgetMessage['attachment'];
    quick_replies?: Choice;
    quick_reply_response?: Choice;
  };
  const titles = (c: Choice) => ({ request_identifier: c.request_identifier, options: c.options.map((o) => ({ title: o.title })) });
  return {
    id: row.id,
    from: row.type === 'inbound' ? 'customer' : 'business',
    ...(body.text !== undefined && { text: body.text }),
    ...(body.attachment !== undefined && { attachment: body.attachment }),
    ...(body.quick_replies !== undefined && { quick_replies: titles(body.quick_replies) }),
    ...(body.quick_reply_response !== undefined && { quick_reply_response: titles(body.quick_reply_response) }),
    timestamp: (row.sentAt instanceof Date ? row.sentAt : new Date(row.sentAt)).toISOString(),
  };
}
