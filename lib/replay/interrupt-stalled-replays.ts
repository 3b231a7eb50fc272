import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { replayRuns } from '@/db/schema';

/**
 * Runs left `running` by a process that stopped (a restart or a crash mid-run): no heartbeat for
 * `stallSeconds` (see startReplayRun). Each is marked `interrupted` with a reason a person reads;
 * its chats not replayed stay so (the diff calls them not replayed). Answers the runs marked.
 * Safe on several instances at once: the status is checked in the update itself. A scan of
 * replay_runs (runs, not chats: a few per account per day, kept REPLAY_RETENTION_DAYS).
 */
export async function interruptStalledReplays(db: Db, { stallSeconds }: { stallSeconds: number }): Promise<string[]> {
  const rows = await db
    .update(replayRuns)
    .set({
      status: 'interrupted',
      error: sql`'interrupted: the server running it stopped (no sign of life since ' || to_char(${replayRuns.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ', after ' || ${replayRuns.chatsDone} || ' of ' || ${replayRuns.chatsTotal} || ' chats); start a new run'`,
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(replayRuns.status, 'running'), lt(replayRuns.updatedAt, sql`now() - make_interval(secs => ${stallSeconds})`)))
    .returning({ id: replayRuns.id });
  return rows.map((r) => r.id);
}
