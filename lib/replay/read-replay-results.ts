import { and, asc, eq, gt } from 'drizzle-orm';
import type { RecordingLine } from '@/contracts/admin/schemas/recording';
import type { Db } from '@/db/client';
import { replayChats } from '@/db/schema';
import { requireReplayRun } from './replay-run-view';

/**
 * GET /api/admin/replays/{run_id}/results: the run's chats as replayed, in recording order, in the
 * recording format (a chat not replayed yet is left out). Read a page at a time along the primary key.
 */
export async function readReplayResults(
  db: Db,
  { accountId, runId }: { accountId: number; runId: string },
): Promise<AsyncGenerator<RecordingLine>> {
  await requireReplayRun(db, { accountId, runId });
  return pages(db, runId);
}

async function* pages(db: Db, runId: string): AsyncGenerator<RecordingLine> {
  let after = -1;
  for (;;) {
    const rows = await db
      .select({ seq: replayChats.seq, result: replayChats.result })
      .from(replayChats)
      .where(and(eq(replayChats.runId, runId), gt(replayChats.seq, after)))
      .orderBy(asc(replayChats.seq))
      .limit(200);
    if (!rows.length) return;
    after = rows[rows.length - 1].seq;
    for (const r of rows) if (r.result) yield r.result as RecordingLine;
  }
}
