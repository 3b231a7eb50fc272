import { deliverChatEvents } from './functions/deliver-chat-events';
import { runRetention } from './functions/run-retention';
import { sweepOutbox } from './functions/sweep-outbox';

export { inngest } from './client';

/** Every function the app serves at /api/inngest. */
export const functions = [deliverChatEvents, sweepOutbox, runRetention];
