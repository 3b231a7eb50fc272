import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';

type QuickReplyAnswer = { request_identifier: string; options: { title: string; payload?: string }[] };

/**
 * A customer's quick-reply answer names the options by title; the bot that offered them keyed
 * them by payload, and the event's `postback` is that payload. An answer appended without
 * payloads gets them from the chat's latest offer with the same `request_identifier` (options
 * matched by title). Options left unmatched stay without one. Mutates and returns `body`.
 */
export async function fillQuickReplyPayloads(
  tx: Db,
  { chatId, body }: { chatId: string; body: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const answer = body.quick_reply_response as QuickReplyAnswer | undefined;
  if (!answer || answer.options.every((o) => o.payload !== undefined)) return body;
  const offered = await offeredQuickReplies(tx, { chatId, requestIdentifier: answer.request_identifier });
  const byTitle = new Map(offered.map((o) => [o.title, o.payload]));
  body.quick_reply_response = {
    ...answer,
    options: answer.options.map((o) => (o.payload === undefined && byTitle.has(o.title) ? { ...o, payload: byTitle.get(o.title) } : o)),
  };
  return body;
}

/**
 * The options of the chat's latest offer with this `request_identifier` (none when there is no
 * such offer). Reads the chat's messages newest first on messages_chat_idx, stopping at the first.
 */
export async function offeredQuickReplies(
  db: Db,
  { chatId, requestIdentifier }: { chatId: string; requestIdentifier: string },
): Promise<{ title: string; payload: string }[]> {
  const [offer] = await db
    .select({ body: messages.body })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        eq(messages.type, 'outbound'),
        sql`${messages.body} -> 'quick_replies' ->> 'request_identifier' = ${requestIdentifier}`,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return (offer?.body.quick_replies as { options?: { title: string; payload: string }[] } | undefined)?.options ?? [];
}
