import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { WidgetMessage } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { preparedInTransaction } from '@/platform/util/prepared';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat, toWidgetMessage } from './widget-chat-view';

const WIDGET_PAGE_SIZE = 100;

/** The customer's view of their chat after message `after`, oldest first, a page at a time. */
export async function listWidgetMessages(
  db: Db,
  { visitor, chatId, after = 0 }: { visitor: WidgetVisitorAuth; chatId: string; after?: number },
): Promise<{ messages: WidgetMessage[]; more: boolean }> {
  await loadOwnChat(db, { visitor, chatId });
  const rows = await widgetMessagesAfter(db, { chatId, after, limit: WIDGET_PAGE_SIZE + 1 });
  const open = rows.findIndex((r) => r.streamState === 'open');
  // A streamed reply still open is not a message yet: the page ends before it, and the live
  // stream shows it growing, then sends it whole with what followed it.
  if (open !== -1) return { messages: rows.slice(0, Math.min(open, WIDGET_PAGE_SIZE)).map(toWidgetMessage), more: false };
  return { messages: rows.slice(0, WIDGET_PAGE_SIZE).map(toWidgetMessage), more: rows.length > WIDGET_PAGE_SIZE };
}

/**
 * The statement behind a page (and behind each push of the live stream): the transcript index on
 * (chat_id, id) read from the cursor, announcements skipped. Prepared once per process: an open
 * widget runs it whenever a change cannot be sent on without a read. The plan test reads it too.
 */
export function widgetMessagesQuery(db: Db) {
  return db
    .select({
      id: messages.id,
      type: messages.type,
      body: messages.body,
      sentAt: messages.sentAt,
      streamState: messages.streamState,
      streamSeq: messages.streamSeq,
      streamEnds: messages.streamEnds,
    })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, sql.placeholder('chatId')),
        gt(messages.id, sql.placeholder('after')),
        inArray(messages.type, ['inbound', 'outbound']),
      ),
    )
    .orderBy(asc(messages.id))
    .limit(sql.placeholder('limit'));
}
const widgetMessagesStatement = preparedInTransaction('widget_messages_after', widgetMessagesQuery);

export function widgetMessagesAfter(db: Db, values: { chatId: string; after: number; limit: number }) {
  return widgetMessagesStatement(db).execute(values);
}
