import { desc, eq } from 'drizzle-orm';
import type { ReplayRunView } from '@/contracts/admin/schemas/replay';
import type { Db } from '@/db/client';
import { replayRuns } from '@/db/schema';
import { toReplayRunView } from './replay-run-view';

/** GET /api/admin/replays: the account's last 100 runs, newest first (replay_runs_account_idx). */
export async function listReplayRuns(db: Db, { accountId }: { accountId: number }): Promise<ReplayRunView[]> {
  const rows = await db
    .select()
    .from(replayRuns)
    .where(eq(replayRuns.accountId, accountId))
    .orderBy(desc(replayRuns.createdAt), desc(replayRuns.id))
    .limit(100);
  return rows.map((r) => toReplayRunView(r));
}
