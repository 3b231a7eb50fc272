import { and, asc, eq, gt } from 'drizzle-orm';
import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';
import { toMessageView } from './message-view';

/** A chat's transcript, oldest first, paginated by message order. */
export async function listMessages(
  db: Db,
  { accountId, chatId, pageSize = 50, cursor }: { accountId: number; chatId: string; pageSize?: number; cursor?: string },
): Promise<{ messages: Message[]; nextCursor: string | null }> {
  const [chat] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.accountId, accountId)));
  if (!chat) throw new ApiError(2031);
  const after = cursor ? decodeCursor(cursor, (p): p is [number] => p.length === 1 && Number.isInteger(p[0]))[0] : 0;
  const rows = await transcriptPageQuery(db, { chatId, after, pageSize });
  const page = rows.slice(0, pageSize);
  return {
    messages: page.map(toMessageView),
    nextCursor: rows.length > pageSize ? encodeCursor([page[page.length - 1].id]) : null,
  };
}

/** The statement behind a transcript page (the plan test reads it too). */
export function transcriptPageQuery(db: Db, { chatId, after, pageSize }: { chatId: string; after: number; pageSize: number }) {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.id, after)))
    .orderBy(asc(messages.id))
    .limit(pageSize + 1);
}
