import { and, asc, eq, gt, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { RecordingLine } from '@/contracts/admin/schemas/recording';
import type { ExportRecordingsQuery } from '@/contracts/admin/schemas/replay';
import type { Db } from '@/db/client';
import { chats, customers, events, messages, teams, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { type TranscriptChat, transcriptToRecording } from './transcript-to-recording';

const BATCH = 200;
const DEFAULT_LIMIT = 10_000;

/**
 * The account's chats that match every filter given, as recording lines, oldest first, read a
 * batch at a time by keyset on (created_at, id) (chats_account_created_idx) with each batch's
 * transcripts in one read (messages_chat_idx), so an export of any size holds one batch in memory.
 */
export function exportRecordings(
  db: Db,
  { accountId, query }: { accountId: number; query: ExportRecordingsQuery },
): AsyncGenerator<RecordingLine> {
  // Checked before the answer starts: a refusal is an envelope, not a broken stream.
  const ids = query.chat_ids
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids && ids.length > 500)
    throw new ApiError(2001, { detail: 'chat_ids', errors: [{ field: 'chat_ids', message: 'at most 500 IDs' }] });
  return readRecordings(db, { accountId, query, ids });
}

async function* readRecordings(
  db: Db,
  { accountId, query, ids }: { accountId: number; query: ExportRecordingsQuery; ids: string[] | undefined },
): AsyncGenerator<RecordingLine> {
  const vaLogins = new Set(
    (
      await db
        .select({ login: users.loginId })
        .from(users)
        .where(and(eq(users.accountId, accountId), eq(users.kind, 'virtual_agent')))
    ).map((u) => u.login),
  );
  let left = query.limit ?? DEFAULT_LIMIT;
  let cursor: Cursor | null = null;
  while (left > 0) {
    const batch = await exportBatchQuery(db, { accountId, query, ids, cursor, limit: BATCH });
    if (!batch.length) return;
    const last = batch[batch.length - 1];
    cursor = { at: last.createdAt, id: last.id };
    const transcripts = await exportTranscriptsQuery(
      db,
      batch.map((c) => c.id),
    );
    const byChat = new Map<string, typeof transcripts>();
    for (const m of transcripts) byChat.set(m.chatId, [...(byChat.get(m.chatId) ?? []), m]);
    for (const c of batch) {
      const chat: TranscriptChat = {
        ...c,
        otherDetails: c.otherDetails as TranscriptChat['otherDetails'],
        assigneeIsVa: c.assigneeKind === 'virtual_agent',
      };
      const line = transcriptToRecording(chat, byChat.get(c.id) ?? [], vaLogins);
      if (!line) continue;
      yield line;
      if (--left === 0) return;
    }
    if (batch.length < BATCH) return;
  }
}

/** The lines as a JSON Lines byte stream, pulled as the reader reads (a slow reader slows the export). */
export function toJsonLinesStream(lines: AsyncGenerator<RecordingLine>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}

type ExportCursor = { at: Date; id: string };
type Cursor = ExportCursor;
const after = (cursor: Cursor | null) =>
  cursor ? or(gt(chats.createdAt, cursor.at), and(eq(chats.createdAt, cursor.at), gt(chats.id, cursor.id))) : undefined;

/**
 * One batch of the chats to export, after `cursor` in (created_at, id) order: every filter given
 * must hold. test/plans/replay reads its plan on a large table.
 */
export function exportBatchQuery(
  db: Db,
  {
    accountId,
    query,
    ids,
    cursor,
    limit,
  }: { accountId: number; query: ExportRecordingsQuery; ids?: string[]; cursor: Cursor | null; limit: number },
) {
  const filters = [
    eq(chats.accountId, accountId),
    ids && inArray(chats.id, ids),
    query.tag !== undefined && sql`${chats.tags} @> array[${query.tag}]::text[]`,
    query.from !== undefined && gte(chats.createdAt, new Date(query.from)),
    query.to !== undefined && lt(chats.createdAt, new Date(query.to)),
    // A probe per chat of the batch (events_chat_va_seq_idx). As an EXISTS the planner hashed every
    // event of the VA once per batch: all of the events table for a VA that held most chats.
    query.virtual_agent_id !== undefined &&
      or(
        eq(chats.assigneeId, query.virtual_agent_id),
        sql`(select 1 from ${events} where ${events.chatId} = ${chats.id} and ${events.virtualAgentId} = ${query.virtual_agent_id} limit 1) is not null`,
      ),
    after(cursor),
  ].filter((f): f is SQL => f !== undefined && f !== false);
  return readBatch(db, and(...filters), limit);
}

/** The transcripts of a batch's chats, in one read (messages_chat_idx). */
export function exportTranscriptsQuery(db: Db, chatIds: string[]) {
  return db
    .select({
      chatId: messages.chatId,
      type: messages.type,
      body: messages.body,
      author: messages.authorLoginId,
      sentAt: messages.sentAt,
    })
    .from(messages)
    .where(inArray(messages.chatId, chatIds))
    .orderBy(asc(messages.chatId), asc(messages.id));
}

function readBatch(db: Db, where: SQL | undefined, limit: number) {
  return db
    .select({
      id: chats.id,
      channel: chats.channel,
      subject: chats.subject,
      status: chats.status,
      outcome: chats.outcome,
      tags: chats.tags,
      otherDetails: chats.otherDetails,
      createdAt: chats.createdAt,
      teamName: teams.name,
      assigneeKind: users.kind,
      destinationId: customers.destinationId,
      customerName: customers.name,
    })
    .from(chats)
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .innerJoin(teams, eq(teams.id, chats.teamId))
    .leftJoin(users, eq(users.id, chats.assigneeId))
    .where(where)
    .orderBy(asc(chats.createdAt), asc(chats.id))
    .limit(limit);
}
