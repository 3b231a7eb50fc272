import { getDb } from '@/db/client';
import { env } from '@/env';
import { advanceRecoveries } from '@/lib/delivery/advance-recoveries';
import { findStrandedEvents } from '@/lib/delivery/find-stranded-events';
import { sweepReplyTimers } from '@/lib/delivery/ops-watch';
import { markFailingWebhooks } from '@/lib/delivery/webhook-failing';
import { handOverIdlePullChats } from '@/lib/pull/hand-over-idle-pull';
import { inngest } from '../client';
import { deliveryRequestFor } from '../events';

/**
 * Every minute, hands over again the outbox events nobody is working on (their first hand-over to
 * Inngest failed, or their run used up its wake-ups). The minute is part of the event id, so
 * several app instances sweeping at once send each event once. It also advances the recoveries of
 * failed events, marks long-failing webhooks, applies the bot-down fallback of idle pull VAs, closes idle streamed replies and acts on spent reply
 * budgets (the embedded engine's ops-watch does that itself, every second).
 */
export const sweepOutbox = inngest.createFunction(
  { id: 'sweep-outbox', retries: 2, triggers: [{ cron: '* * * * *' }] },
  async ({ step }) => {
    await step.run('advance-recoveries', async () => [...(await advanceRecoveries(await getDb())).keys()]);
    await step.run('mark-failing-webhooks', async () =>
      markFailingWebhooks(await getDb(), { afterSeconds: env().WEBHOOK_FAILING_AFTER_SECONDS }),
    );
    await step.run('idle-pull-fallback', async () => (await handOverIdlePullChats(await getDb())).length);
    await step.run('sweep-streams-and-reply-budgets', async () => sweepReplyTimers(await getDb()));
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
