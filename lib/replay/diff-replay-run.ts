import { and, asc, eq, gt } from 'drizzle-orm';
import { type RecordingLine, recordingLineSchema } from '@/contracts/admin/schemas/recording';
import type { Db } from '@/db/client';
import { replayChats } from '@/db/schema';
import { type ChatDiff, type DiffOptions, diffChat } from './diff-chat';
import { requireReplayRun } from './replay-run-view';
import { summarizeDiff } from './summarize-diff';

const PAGE = 250;

/**
 * GET /api/admin/replays/{run_id}/diff: the run's chats against the recording it replayed or
 * against another run of the account (matched by position in the recording), read a page at a
 * time along the primary key (run_id, seq).
 */
export async function diffReplayRun(
  db: Db,
  {
    accountId,
    runId,
    against = 'recording',
    text,
    include = 'changed',
  }: { accountId: number; runId: string; against?: string; include?: 'changed' | 'all' } & DiffOptions,
) {
  await requireReplayRun(db, { accountId, runId });
  if (against !== 'recording') await requireReplayRun(db, { accountId, runId: against });
  const diffs: ChatDiff[] = [];
  let after = -1;
  for (;;) {
    const candidates = await page(db, runId, after);
    if (!candidates.length) break;
    after = candidates[candidates.length - 1].seq;
    const baselines =
      against === 'recording' ? null : new Map((await page(db, against, candidates[0].seq - 1, after)).map((r) => [r.seq, r]));
    for (const c of candidates) {
      const candidate = parse(c.result) ?? {
        ...parse(c.recording)!,
        replay: { run_id: runId, chat_id: null, seq: c.seq, error: 'not replayed yet' },
      };
      const baseline = baselines ? parse(baselines.get(c.seq)?.result) : parse(c.recording);
      if (!baseline) continue;
      const d = diffChat(baseline, candidate, { text });
      diffs.push(d);
    }
  }
  const chats = include === 'all' ? diffs : diffs.filter((d) => d.changed);
  return { run_id: runId, against, summary: summarizeDiff(diffs), chats: chats as unknown as Record<string, unknown>[] };
}

async function page(db: Db, runId: string, after: number, upTo?: number) {
  const rows = await db
    .select({ seq: replayChats.seq, recording: replayChats.recording, result: replayChats.result })
    .from(replayChats)
    .where(and(eq(replayChats.runId, runId), gt(replayChats.seq, after)))
    .orderBy(asc(replayChats.seq))
    .limit(upTo === undefined ? PAGE : upTo - after);
  return rows;
}

function parse(value: unknown): RecordingLine | null {
  if (!value) return null;
  const parsed = recordingLineSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
