import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { countLive } from '@/lib/accounts/live-accounts';
import { noteChatChange, type OutboxTx, withOutbox } from '@/lib/events/with-outbox';
import { metrics } from '@/platform/metrics/registry';
import { toMessageView } from './message-view';
import { streamReturning } from './stream-text';

/**
 * Closes the chat's open streamed replies with the text they hold, marked `cut_short`: the chat
 * left its VA (transfer, close, reassignment, fallback), so later chunks are refused (2047).
 * Runs in the transaction that moves the chat (which `lockChat` noted as changed).
 */
export async function cutStreamsOfChat(
  tx: OutboxTx,
  { chatId, as = 'cut_short' }: { chatId: string; as?: 'cut_short' | 'superseded' },
): Promise<number> {
  const rows = await tx
    .update(messages)
    .set({ streamState: as, streamEnds: null, streamTouchedAt: sql`now()` })
    .where(and(eq(messages.chatId, chatId), eq(messages.streamState, 'open')))
    .returning({ id: messages.id });
  return rows.length;
}

/** Open streams untouched since `before`, oldest first (the partial index `messages_open_stream_idx`). */
export function idleStreamsQuery(db: Db, { before, limit }: { before: Date; limit: number }) {
  return db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.streamState, 'open'), lt(messages.streamTouchedAt, before)))
    .orderBy(messages.streamTouchedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * The idle sweep: streams without a chunk for `idleSeconds` are closed with what they hold,
 * marked `cut_short`. One statement per batch; `SKIP LOCKED` and the repeated condition let several
 * instances sweep at once, each stream closed once, and a chunk that lands first keeps its stream open.
 */
export async function closeIdleStreams(
  db: Db,
  { idleSeconds, now = new Date(), limit = 500 }: { idleSeconds: number; now?: Date; limit?: number },
): Promise<string[]> {
  const before = new Date(now.getTime() - idleSeconds * 1000);
  const idle = idleStreamsQuery(db, { before, limit });
  // One statement (its own transaction): the cut, returning each stream's chat and account, which
  // the live views of those chats and the workspaces' account topic are told of after it.
  const rows = await withOutbox(
    db,
    async (tx) => {
      const cut = await tx
        .update(messages)
        .set({ streamState: 'cut_short', streamEnds: null, streamTouchedAt: sql`now()` })
        .where(and(inArray(messages.id, idle), eq(messages.streamState, 'open'), lt(messages.streamTouchedAt, before)))
        .returning({ transid: messages.transid, chatId: messages.chatId, accountId: messages.accountId });
      for (const r of cut) noteChatChange(tx, r.chatId, r.accountId, { kind: 'streams-cut' });
      return cut;
    },
    { oneStatement: true },
  );
  // A replay's streams (a sandbox's) reach no live metric.
  const live = rows.length
    ? await countLive(
        db,
        rows.map((r) => r.accountId),
      )
    : 0;
  if (live) metrics().streamsCutShort.inc(live);
  return rows.map((r) => r.transid);
}

/**
 * Cuts one open streamed reply short with the text it holds (a reply sent as an event stream that
 * failed or stopped early). Answers the message as it now stands, or `null` when it was no longer open.
 */
export async function cutStream(db: Db, { accountId, chatId, transid }: { accountId: number; chatId: string; transid: string }) {
  const row = await withOutbox(
    db,
    async (tx) => {
      const [cut] = await tx
        .update(messages)
        .set({ streamState: 'cut_short', streamEnds: null, streamTouchedAt: sql`now()` })
        .where(
          and(
            eq(messages.transid, transid),
            eq(messages.chatId, chatId),
            eq(messages.accountId, accountId),
            eq(messages.streamState, 'open'),
          ),
        )
        .returning(streamReturning);
      if (cut) noteChatChange(tx, chatId, accountId, { kind: 'streams-cut' });
      return cut;
    },
    { oneStatement: true },
  );
  if (!row) return null;
  if (await countLive(db, [accountId])) metrics().streamsCutShort.inc();
  return toMessageView(row);
}
