import type { Db } from '@/db/client';
import { env } from '@/env';
import type { EventStream } from '@/platform/realtime/sse-stream';
import { streamWidgetChat } from './stream-widget-chat';
import type { WidgetVisitorAuth } from './types';
import { customerKey } from './widget-guard';
import { releaseWidgetStreamSlot, takeWidgetStreamSlot } from './widget-stream-slots';

/**
 * Admits a customer's stream of their chat: a slot under the caps per customer and per chat
 * (2066 past either), then the chat's live stream, which gives the slot back when it ends. A
 * refusal of the stream itself (2031: not their chat) gives it back at once.
 */
export async function openWidgetStream(
  db: Db,
  { visitor, chatId, after }: { visitor: WidgetVisitorAuth; chatId: string; after: number },
): Promise<EventStream> {
  const e = env();
  const slot = await takeWidgetStreamSlot(db, {
    customer: customerKey(visitor),
    chatId,
    perCustomer: e.WIDGET_STREAMS_PER_CUSTOMER,
    perChat: e.WIDGET_STREAMS_PER_CHAT,
  });
  try {
    const stream = await streamWidgetChat(db, { visitor, chatId, after });
    return stream.onEnd(() => void releaseWidgetStreamSlot(db, slot));
  } catch (err) {
    await releaseWidgetStreamSlot(db, slot);
    throw err;
  }
}
