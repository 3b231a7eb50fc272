import { getDb } from '@/db/client';
import { env } from '@/env';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { retentionJobs } from './jobs';
import { runRetention } from './run-retention';

const store = processStore<{ __vaRetention?: NodeJS.Timeout }>();

/** One retention pass with the configured jobs and batch size. */
export async function runConfiguredRetention(now = new Date()) {
  const config = env();
  return runRetention(await getDb(), { jobs: retentionJobs(config), now, batchSize: config.RETENTION_BATCH_SIZE });
}

/**
 * The embedded schedule: a pass a minute after start, then every `RETENTION_INTERVAL_MINUTES`.
 * With `DELIVERY_ENGINE=inngest` the cron function `run-retention` does it instead, and with
 * `off` (tests, benchmarks) nothing runs in the background.
 */
export function startRetention(): void {
  if (env().DELIVERY_ENGINE !== 'embedded' || store.__vaRetention) return;
  const pass = () => {
    runConfiguredRetention().catch((err) => logger.error('retention pass failed', { err }));
  };
  const first = setTimeout(() => {
    pass();
    store.__vaRetention = setInterval(pass, env().RETENTION_INTERVAL_MINUTES * 60_000);
    store.__vaRetention.unref();
  }, 60_000);
  first.unref();
  store.__vaRetention = first;
}
