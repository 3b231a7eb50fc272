import { eventType } from 'inngest';
import { z } from 'zod';

/** An outbox event is due for delivery; the function drains its chat for its VA. */
export const deliveryRequested = eventType('va/delivery.requested', {
  schema: z.object({
    eventId: z.number().int(),
    transactionId: z.string(),
    chatId: z.string(),
    virtualAgentId: z.number().int(),
  }),
});

export type DeliveryRequest = { eventId: number; transactionId: string; chatId: string; virtualAgentId: number };

/**
 * The Inngest event for an outbox row. Its id is deterministic, so Inngest drops a second send of
 * the same row (a retried hand-over); `round` distinguishes later re-sends by the sweep.
 */
export function deliveryRequestFor(row: DeliveryRequest, round?: string) {
  return deliveryRequested.create(row, { id: round ? `va-event-${row.transactionId}-${round}` : `va-event-${row.transactionId}` });
}
