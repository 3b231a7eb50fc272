import { and, eq } from 'drizzle-orm';
import type { WidgetMessage, WidgetMessageBody } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { appendMessage } from '@/lib/chats/append-message';
import { offeredQuickReplies } from '@/lib/chats/fill-quick-reply-payloads';
import { ApiError } from '@/platform/errors';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat, toWidgetMessage } from './widget-chat-view';

/**
 * The customer writes to their own chat, through the same path as every inbound message (the
 * assigned VA gets `message.received`). A quick reply click is the contract's
 * `quick_reply_response` (livechat sub type), its payload filled from the offer by title. The
 * customer can only choose what the chat offered: an answer naming another offer, or a title the
 * offer did not hold, is refused (2065) and stored nowhere.
 */
export async function sendWidgetMessage(
  db: Db,
  { visitor, chatId, body }: { visitor: WidgetVisitorAuth; chatId: string; body: WidgetMessageBody },
): Promise<WidgetMessage> {
  const hasText = body.text !== undefined;
  const hasChoice = body.quick_reply_response !== undefined;
  if (hasText === hasChoice) {
    throw new ApiError(2000, {
      detail: 'send either text or quick_reply_response',
      errors: [{ field: hasText ? 'quick_reply_response' : 'text', message: hasText ? 'send text or a choice, not both' : 'Required' }],
    });
  }
  const chat = await loadOwnChat(db, { visitor, chatId });
  if (chat.status === 'closed') throw new ApiError(2040, { detail: 'this chat has ended: start a new one' });
  if (body.quick_reply_response) await checkOffered(db, { chatId, answer: body.quick_reply_response });
  const { message, stored } = await appendMessage(db, {
    accountId: visitor.accountId,
    chatId,
    actorLoginId: null,
    // The widget knows whether the customer is typing: a turn window closes as soon as they stop.
    customerTyping: body.typing ?? false,
    input: hasChoice
      ? { type: 'inbound', livechat_sub_type: 'quick_reply_response', quick_reply_response: body.quick_reply_response }
      : { type: 'inbound', text: body.text },
  });
  const [row] = stored
    ? [stored]
    : await db
        .select({ id: messages.id, type: messages.type, body: messages.body, sentAt: messages.sentAt })
        .from(messages)
        .where(and(eq(messages.transid, message.transid), eq(messages.chatId, chatId)));
  return toWidgetMessage(row);
}

async function checkOffered(
  db: Db,
  { chatId, answer }: { chatId: string; answer: NonNullable<WidgetMessageBody['quick_reply_response']> },
): Promise<void> {
  const offered = new Set((await offeredQuickReplies(db, { chatId, requestIdentifier: answer.request_identifier })).map((o) => o.title));
  if (!offered.size) {
    throw new ApiError(2065, {
      detail: `no offer "${answer.request_identifier.slice(0, 200)}" in this chat`,
      errors: [{ field: 'quick_reply_response.request_identifier', message: 'no such offer in this chat' }],
    });
  }
  const i = answer.options.findIndex((o) => !offered.has(o.title));
  if (i !== -1) {
    throw new ApiError(2065, {
      detail: 'choose one of the titles offered',
      errors: [{ field: `quick_reply_response.options.${i}.title`, message: 'not one of the titles offered' }],
    });
  }
}
