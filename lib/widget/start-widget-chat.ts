import type { StartWidgetChatBody, WidgetChat } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { createChat } from '@/lib/chats/create-chat';
import { findCurrentChat } from './find-current-chat';
import { sendWidgetMessage } from './send-widget-message';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat } from './widget-chat-view';

/** Who creates widget chats, for the record (inbound messages have no author). */
const WIDGET_ACTOR = 'widget';

/**
 * Starts the customer's chat on their app, through the same path as the bot API's POST /chats:
 * routing rules, auto-assign and the VA's `chat.assigned` (with the first message) all apply, and
 * the customer is `{destination_id: <livechat id>, name}` on livechat. While the customer still has
 * an open chat, that one is continued instead (a second tab, a repeated click). A disabled asset
 * answers 2035.
 */
export async function startWidgetChat(
  db: Db,
  { visitor, body }: { visitor: WidgetVisitorAuth; body: StartWidgetChatBody },
): Promise<WidgetChat> {
  const current = await findCurrentChat(db, { visitor });
  if (current?.status === 'open') {
    if (body.text) await sendWidgetMessage(db, { visitor, chatId: current.chat_id, body: { text: body.text } });
    return current;
  }
  const { chat } = await createChat(db, {
    accountId: visitor.accountId,
    actorLoginId: WIDGET_ACTOR,
    body: {
      channel: 'livechat',
      asset_id: visitor.assetId,
      customer: { destination_id: visitor.livechatId, ...(body.name && { name: body.name }) },
      ...(body.text && { messages: [{ type: 'inbound' as const, text: body.text }] }),
    },
  });
  return loadOwnChat(db, { visitor, chatId: chat.chat_id });
}
