import { RETENTION_CRON } from '@/lib/duties/duties';
import { inngest } from '../client';
import { runDutySteps } from './run-duty-steps';

/** Hourly, the registry's retention duty (lib/duties/duties.ts `delete-expired-rows`); answers the rows removed per job. */
export const runRetention = inngest.createFunction(
  { id: 'run-retention', retries: 1, triggers: [{ cron: RETENTION_CRON }] },
  async ({ step }) => (await runDutySteps(step, RETENTION_CRON))['delete-expired-rows'],
);
