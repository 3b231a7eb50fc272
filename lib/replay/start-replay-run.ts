import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type RecordingLine, recordingLineSchema } from '@/contracts/admin/schemas/recording';
import { CODES } from '@/contracts/codes';
import type { Db } from '@/db/client';
import { replayChats, replayRuns, users } from '@/db/schema';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { type ReplayTarget, type ReplayTimings, replayChat } from './replay-chat';
import { DEFAULT_REPLAY_OPTIONS, requireReplayRun, toReplayRunView } from './replay-run-view';

const store = processStore<{ __vaReplayRuns?: Map<string, Promise<void>> }>();
const running = () => {
  store.__vaReplayRuns ??= new Map();
  return store.__vaReplayRuns;
};

/** Settles when the run (started in this process) has replayed every chat; undefined if it is not running here. */
export function replayRunFinished(runId: string): Promise<void> | undefined {
  return running().get(runId);
}

/**
 * POST /api/admin/replays/{run_id}/start: marks the run `running` and replays its chats in the
 * background of this process, `concurrency` at a time; each chat's result is stored as it finishes
 * and the run is `done` after the last. While it runs, its row's `updated_at` is touched every
 * quarter of REPLAY_STALL_SECONDS, so a run whose process stopped is found and marked `interrupted`
 * (interruptStalledReplays, a duty).
 */
export async function startReplayRun(
  db: Db,
  { accountId, runId, pollMs = 40, heartbeatMs }: { accountId: number; runId: string; pollMs?: number; heartbeatMs?: number },
) {
  const run = await requireReplayRun(db, { accountId, runId });
  if (run.chatsTotal === 0) throw new ApiError(2114, { detail: `replay run ${runId}` });
  const [started] = await db
    .update(replayRuns)
    .set({ status: 'running', updatedAt: new Date() })
    .where(and(eq(replayRuns.id, runId), eq(replayRuns.status, 'loading')))
    .returning();
  if (!started) throw new ApiError(2112, { detail: `replay run ${runId} is ${run.status}` });
  const [va] = await db.select({ loginId: users.loginId }).from(users).where(eq(users.id, run.virtualAgentId));
  const options = { ...DEFAULT_REPLAY_OPTIONS, ...(run.options as Partial<typeof DEFAULT_REPLAY_OPTIONS>) };
  const target: ReplayTarget = { runId, sandboxId: run.sandboxAccountId, vaUserId: run.virtualAgentId, vaLoginId: va.loginId };
  const timings: ReplayTimings = { settleMs: options.settle_ms, turnTimeoutMs: options.turn_timeout_ms, pollMs };
  const beat = setInterval(
    () =>
      void db
        .update(replayRuns)
        .set({ updatedAt: new Date() })
        .where(and(eq(replayRuns.id, runId), eq(replayRuns.status, 'running')))
        .catch((err) => logger.warn('replay heartbeat not written', { runId, err })),
    heartbeatMs ?? (env().REPLAY_STALL_SECONDS * 1000) / 4,
  );
  beat.unref();
  const work = runAll(db, { target, timings, concurrency: options.concurrency }).finally(() => {
    clearInterval(beat);
    running().delete(runId);
  });
  running().set(runId, work);
  return toReplayRunView(started);
}

async function runAll(db: Db, { target, timings, concurrency }: { target: ReplayTarget; timings: ReplayTimings; concurrency: number }) {
  const { runId } = target;
  try {
    let after = -1;
    let queue: { seq: number; recording: unknown }[] = [];
    let exhausted = false;
    // Lines are read in pages, so a large recording is never held in memory whole.
    const next = async () => {
      if (!queue.length && !exhausted) {
        queue = await replayLinesQuery(db, runId, after);
        if (queue.length) after = queue[queue.length - 1].seq;
        else exhausted = true;
      }
      return queue.shift();
    };
    let reading: Promise<{ seq: number; recording: unknown } | undefined> = Promise.resolve(undefined);
    const worker = async () => {
      for (;;) {
        // One page read at a time: workers take turns at the queue.
        reading = reading.then(next);
        const item = await reading;
        if (!item) return;
        const { seq, recording } = item;
        await replayOne(db, { target, timings, seq, recording: recordingLineSchema.parse(recording) });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    // Only a run still `running`: one marked interrupted meanwhile (its heartbeat stalled) stays so.
    await db
      .update(replayRuns)
      .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(replayRuns.id, runId), eq(replayRuns.status, 'running')));
  } catch (err) {
    logger.error('replay run failed', { runId, err });
    await db
      .update(replayRuns)
      .set({
        status: 'failed',
        error: 'the run stopped on an unexpected error (see the server log)',
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(replayRuns.id, runId), eq(replayRuns.status, 'running')));
  }
}

/** The run's next 200 lines after `after`, along the primary key (run_id, seq). */
export function replayLinesQuery(db: Db, runId: string, after: number) {
  return db
    .select({ seq: replayChats.seq, recording: replayChats.recording })
    .from(replayChats)
    .where(and(eq(replayChats.runId, runId), gt(replayChats.seq, after)))
    .orderBy(asc(replayChats.seq))
    .limit(200);
}

async function replayOne(
  db: Db,
  { target, timings, seq, recording }: { target: ReplayTarget; timings: ReplayTimings; seq: number; recording: RecordingLine },
) {
  let result: RecordingLine;
  let failed = false;
  try {
    result = await replayChat(db, { target, seq, recording, timings });
  } catch (err) {
    failed = true;
    // The reason is ours (an ApiError's description), never the customer's text.
    const reason = err instanceof ApiError ? `${err.code}: ${CODES[err.code].description}` : 'unexpected error';
    if (!(err instanceof ApiError)) logger.error('replay of a chat failed', { runId: target.runId, seq, err });
    result = {
      ...recording,
      turns: recording.turns.map((t) => ({ customer: t.customer, bot: null })),
      replay: { run_id: target.runId, chat_id: null, seq, error: reason },
    };
  }
  await db
    .update(replayChats)
    .set({ result, chatId: result.replay?.chat_id ?? null, status: failed ? 'failed' : 'done', error: result.replay?.error ?? null })
    .where(and(eq(replayChats.runId, target.runId), eq(replayChats.seq, seq)));
  await db
    .update(replayRuns)
    .set({ chatsDone: sql`${replayRuns.chatsDone} + 1`, updatedAt: new Date() })
    .where(eq(replayRuns.id, target.runId));
}
