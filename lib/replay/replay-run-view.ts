import { and, count, eq } from 'drizzle-orm';
import type { ReplayRunView } from '@/contracts/admin/schemas/replay';
import type { Db } from '@/db/client';
import { replayChats, replayRuns } from '@/db/schema';
import { ApiError } from '@/platform/errors';

export const DEFAULT_REPLAY_OPTIONS = { settle_ms: 300, turn_timeout_ms: 15_000, concurrency: 16 };
type Run = typeof replayRuns.$inferSelect;

export function toReplayRunView(run: Run, chatsFailed = 0): ReplayRunView {
  return {
    run_id: run.id,
    label: run.label,
    status: run.status,
    virtual_agent_id: run.virtualAgentId,
    chats_total: run.chatsTotal,
    chats_done: run.chatsDone,
    chats_failed: chatsFailed,
    options: { ...DEFAULT_REPLAY_OPTIONS, ...(run.options as Partial<typeof DEFAULT_REPLAY_OPTIONS>) },
    error: run.error,
    created_at: run.createdAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

/** The account's run, or 2110 (another account's run answers the same). */
export async function requireReplayRun(db: Db, { accountId, runId }: { accountId: number; runId: string }): Promise<Run> {
  const [run] = await db
    .select()
    .from(replayRuns)
    .where(and(eq(replayRuns.id, runId), eq(replayRuns.accountId, accountId)));
  if (!run) throw new ApiError(2110, { detail: `replay run ${runId}` });
  return run;
}

/** GET /api/admin/replays/{run_id}. */
export async function getReplayRun(db: Db, { accountId, runId }: { accountId: number; runId: string }): Promise<ReplayRunView> {
  const run = await requireReplayRun(db, { accountId, runId });
  const [failed] = await db
    .select({ n: count() })
    .from(replayChats)
    .where(and(eq(replayChats.runId, runId), eq(replayChats.status, 'failed')));
  return toReplayRunView(run, failed?.n ?? 0);
}
