import { and, eq, sql } from 'drizzle-orm';
import type { RecordingLine } from '@/contracts/admin/schemas/recording';
import type { Db } from '@/db/client';
import { replayChats, replayRuns } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { requireReplayRun, toReplayRunView } from './replay-run-view';

/**
 * POST /api/admin/replays/{run_id}/chats: appends recording lines to a run still `loading` (2112
 * once started). The run row is locked, so two calls at once keep their lines apart and in order.
 */
export async function addReplayChats(db: Db, { accountId, runId, chats }: { accountId: number; runId: string; chats: RecordingLine[] }) {
  await requireReplayRun(db, { accountId, runId });
  const run = await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(replayRuns)
      .where(and(eq(replayRuns.id, runId), eq(replayRuns.accountId, accountId)))
      .for('update');
    if (locked.status !== 'loading') throw new ApiError(2112, { detail: `replay run ${runId} is ${locked.status}` });
    await tx.insert(replayChats).values(chats.map((recording, i) => ({ runId, seq: locked.chatsTotal + i, recording })));
    const [updated] = await tx
      .update(replayRuns)
      .set({ chatsTotal: sql`${replayRuns.chatsTotal} + ${chats.length}`, updatedAt: new Date() })
      .where(eq(replayRuns.id, runId))
      .returning();
    return updated;
  });
  return toReplayRunView(run);
}
