import type { Db } from '@/db/client';
import { logger } from '@/platform/util/logger';

/**
 * One kind of data that ages out. `deleteBatch` removes at most `limit` rows that are due at `now`
 * and answers how many it removed; the runner calls it again until a batch comes back short.
 */
export type RetentionJob = {
  name: string;
  deleteBatch: (db: Db, opts: { now: Date; limit: number }) => Promise<number>;
};

export type RetentionRun = { job: string; deleted: number; batches: number; complete: boolean }[];

/**
 * Runs each job in small batches (each its own short statement, so no lock or transaction grows
 * with the backlog) until it has nothing left or `maxBatches` is spent; the next run carries on.
 * A failing job is logged and the others still run.
 */
export async function runRetention(
  db: Db,
  { jobs, now = new Date(), batchSize, maxBatches = 1000 }: { jobs: RetentionJob[]; now?: Date; batchSize: number; maxBatches?: number },
): Promise<RetentionRun> {
  const run: RetentionRun = [];
  for (const job of jobs) {
    let deleted = 0;
    let batches = 0;
    let complete = false;
    try {
      while (batches < maxBatches) {
        const n = await job.deleteBatch(db, { now, limit: batchSize });
        batches++;
        deleted += n;
        if (n < batchSize) {
          complete = true;
          break;
        }
      }
    } catch (err) {
      logger.error('retention job failed', { job: job.name, err });
    }
    run.push({ job: job.name, deleted, batches, complete });
  }
  const total = run.reduce((s, r) => s + r.deleted, 0);
  if (total) logger.info('retention removed old rows', { removed: Object.fromEntries(run.map((r) => [r.job, r.deleted])) });
  return run;
}
