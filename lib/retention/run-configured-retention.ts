import type { Db } from '@/db/client';
import { env } from '@/env';
import { retentionJobs } from './jobs';
import { runRetention } from './run-retention';

/**
 * One retention pass with the configured jobs and batch size: the duty `delete-expired-rows`
 * (lib/duties/duties.ts), run by the embedded loop every RETENTION_INTERVAL_MINUTES or hourly by
 * Inngest's `run-retention`.
 */
export async function runConfiguredRetention(db: Db, now = new Date()) {
  const config = env();
  return runRetention(db, { jobs: retentionJobs(config), now, batchSize: config.RETENTION_BATCH_SIZE });
}
