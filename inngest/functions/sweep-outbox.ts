import { getDb } from '@/db/client';
import { findStrandedEvents } from '@/lib/delivery/find-stranded-events';
import { EVERY_MINUTE } from '@/lib/duties/duties';
import { inngest } from '../client';
import { deliveryRequestFor } from '../events';
import { runDutySteps } from './run-duty-steps';

/**
 * Every minute: the registry's duties on that cron (lib/duties/duties.ts: recoveries, failing
 * webhooks, idle pull VAs, idle streams, reply clocks, approvals, due turns as a catch-up), one step each, then Inngest's own duty:
 * hand over again the outbox events nobody is working on (their first hand-over to Inngest failed,
 * or their run used up its wake-ups). The minute is part of the event id, so several app instances
 * sweeping at once send each event once.
 */
export const sweepOutbox = inngest.createFunction(
  { id: 'sweep-outbox', retries: 2, triggers: [{ cron: EVERY_MINUTE }] },
  async ({ step }) => {
    await runDutySteps(step, EVERY_MINUTE);
    const stranded = await step.run('find-stranded-events', async () =>
      findStrandedEvents(await getDb(), { overdueMs: 60_000, limit: 1_000 }),
    );
    if (!stranded.length) return { sent: 0 };
    const round = new Date().toISOString().slice(0, 16);
    await step.sendEvent(
      'request-delivery',
      stranded.map((row) => deliveryRequestFor(row, round)),
    );
    return { sent: stranded.length };
  },
);
