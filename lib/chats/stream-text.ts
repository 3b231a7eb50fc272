import { and, eq, type Placeholder, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import type { MessageRow } from './message-view';

/** The most a message's text holds, streamed or not (the contract's `text` limit). */
export const MAX_TEXT_LENGTH = 4096;

/** Columns a stream operation answers with: the message view's and what the refusal needs. */
export const streamReturning = {
  transid: messages.transid,
  type: messages.type,
  body: messages.body,
  authorLoginId: messages.authorLoginId,
  sentAt: messages.sentAt,
  streamState: messages.streamState,
  streamSeq: messages.streamSeq,
  turnId: messages.turnId,
  stale: messages.stale,
} as const;

export type StreamLook = {
  chatFound: boolean;
  assigneeId: number | null;
  message: (MessageRow & { streamEnds: number[] | null }) | null;
};

/**
 * What a stream operation found when its one-statement write matched nothing: the chat (of this
 * account), its assignee and the message (of this chat), so the refusal can say which rule failed.
 */
export async function lookAtStream(
  db: Db,
  { accountId, chatId, transid }: { accountId: number; chatId: string; transid: string },
): Promise<StreamLook> {
  const [row] = await db
    .select({ assigneeId: chats.assigneeId, message: { ...streamReturning, streamEnds: messages.streamEnds } })
    .from(chats)
    .leftJoin(messages, and(eq(messages.chatId, chats.id), eq(messages.transid, transid)))
    .where(and(eq(chats.id, chatId), eq(chats.accountId, accountId)));
  if (!row) return { chatFound: false, assigneeId: null, message: null };
  return { chatFound: true, assigneeId: row.assigneeId, message: row.message?.transid ? (row.message as StreamLook['message']) : null };
}

/**
 * `exists` the chat held by this user: a stream is written only by the VA holding its chat. Takes
 * values or placeholders (the prepared chunk append).
 */
export function heldBy(chatId: string | Placeholder, userId: number | Placeholder | null) {
  return userId === null
    ? sql`true`
    : sql`exists (select 1 from ${chats} where ${chats.id} = ${chatId} and ${chats.assigneeId} = ${userId})`;
}
