import { runConfiguredRetention } from '@/lib/retention/start-retention';
import { inngest } from '../client';

/** Hourly, removes data past its retention period (lib/retention), in bounded batches. */
export const runRetention = inngest.createFunction(
  { id: 'run-retention', retries: 1, triggers: [{ cron: '17 * * * *' }] },
  async ({ step }) =>
    step.run('delete-expired-rows', async () => {
      const run = await runConfiguredRetention();
      return Object.fromEntries(run.map((r) => [r.job, r.deleted]));
    }),
);
