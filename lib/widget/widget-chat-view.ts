import { and, eq } from 'drizzle-orm';
import type { WidgetChat, WidgetMessage, WidgetTyping } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { chats, customers, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import type { WidgetVisitorAuth } from './types';

/**
 * The customer's own chat: on their app, on livechat, with them as the customer. Anyone else's
 * chat is "not found" (2031), exactly as a chat that does not exist.
 */
export async function loadOwnChat(db: Db, { visitor, chatId }: { visitor: WidgetVisitorAuth; chatId: string }): Promise<WidgetChat> {
  return (await loadOwnChatLive(db, { visitor, chatId })).chat;
}

/**
 * The customer's own chat with what the live view adds: the VA's typing indicator as the customer
 * sees it (only while it is on and the chat is open). One read by primary key.
 */
export async function loadOwnChatLive(
  db: Db,
  { visitor, chatId, now = new Date() }: { visitor: WidgetVisitorAuth; chatId: string; now?: Date },
): Promise<{ chat: WidgetChat; typing: WidgetTyping }> {
  const [row] = await db
    .select({
      id: chats.id,
      status: chats.status,
      assigneeKind: users.kind,
      typingUntil: chats.typingUntil,
      typingStatus: chats.typingStatus,
    })
    .from(chats)
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .leftJoin(users, eq(users.id, chats.assigneeId))
    .where(
      and(
        eq(chats.id, chatId),
        eq(chats.accountId, visitor.accountId),
        eq(chats.assetId, visitor.assetId),
        eq(chats.channel, 'livechat'),
        eq(customers.destinationId, visitor.livechatId),
      ),
    );
  if (!row) throw new ApiError(2031, { detail: 'no such chat for this customer' });
  const chat = toWidgetChat(row);
  const until = row.typingUntil ? new Date(row.typingUntil) : null;
  const on = chat.status === 'open' && until !== null && until.getTime() > now.getTime();
  return {
    chat,
    typing: on
      ? {
          on: true,
          status_text: row.typingStatus ?? null,
          expires_at: until.toISOString(),
          seconds_left: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
        }
      : TYPING_OFF,
  };
}

export const TYPING_OFF: WidgetTyping = { on: false, status_text: null, expires_at: null, seconds_left: 0 };

export function toWidgetChat(row: { id: string; status: string; assigneeKind: string | null }): WidgetChat {
  return {
    chat_id: row.id,
    status: row.status === 'closed' ? 'closed' : 'open',
    handled_by: row.assigneeKind === null ? 'waiting' : row.assigneeKind === 'virtual_agent' ? 'bot' : 'person',
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
  const body = row.body as {
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
