import { RetryAfterError } from 'inngest';
import { getDb } from '@/db/client';
import { drainChat } from '@/lib/delivery/drain-chat';
import { inngest } from '../client';
import { deliveryRequested } from '../events';

/**
 * Delivers the chat of the triggering outbox event: every due event of that chat for that VA, in
 * order. Order and the retry schedule live in Postgres (the same core as the embedded engine);
 * Inngest only wakes the function: when the chat's next event is due later (a retry, or an
 * earlier event being retried), the step throws RetryAfterError for that time.
 */
export const deliverChatEvents = inngest.createFunction(
  {
    id: 'deliver-chat-events',
    // Wake-ups, not the delivery schedule: an event is dead-lettered by the database schedule.
    // A run that runs out of them leaves its events pending for the sweep.
    retries: 20,
    // Runs for one chat do not race for it (the lease makes that safe anyway, but wasteful).
    concurrency: [{ key: 'event.data.chatId', limit: 1 }],
    triggers: [deliveryRequested],
  },
  async ({ event, step }) => {
    const { chatId, virtualAgentId } = event.data;
    return step.run('drain-chat', async () => {
      const result = await drainChat(await getDb(), { chatId, virtualAgentId });
      if (result.waitMs !== null) {
        // Inngest counts retry times in whole seconds, so sub-second test schedules round up to 1 s.
        throw new RetryAfterError(`chat ${chatId} has an event due in ${result.waitMs} ms`, result.waitMs);
      }
      return result;
    });
  },
);
