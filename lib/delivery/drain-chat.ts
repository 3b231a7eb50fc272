import type { Db } from '@/db/client';
import { claimDueEventOfChat } from './claim-due-events';
import { deliverClaimedEvent } from './deliver-claimed-event';
import { msUntilNextDue } from './ms-until-next-due';

export type DrainResult = {
  attempts: number;
  delivered: number;
  failed: number;
  /** Null: the chat has nothing pending for the VA. Otherwise how long until its next event may be sent (0: at once). */
  waitMs: number | null;
};

/**
 * Sends one chat's due events to one VA, oldest first, until one must wait for a retry, none is
 * left, or the time budget is spent (an Inngest request should not run for minutes).
 */
export async function drainChat(
  db: Db,
  { chatId, virtualAgentId, budgetMs = 20_000 }: { chatId: string; virtualAgentId: number; budgetMs?: number },
): Promise<DrainResult> {
  const started = Date.now();
  const out: DrainResult = { attempts: 0, delivered: 0, failed: 0, waitMs: null };
  for (;;) {
    const event = await claimDueEventOfChat(db, { chatId, virtualAgentId });
    if (!event) {
      const ms = await msUntilNextDue(db, { chat: { chatId, virtualAgentId } });
      out.waitMs = ms === null ? null : Math.max(0, Math.ceil(ms));
      return out;
    }
    const result = await deliverClaimedEvent(db, { event });
    out.attempts++;
    if (result.status === 'delivered') out.delivered++;
    if (result.status === 'failed') out.failed++;
    if (result.status === 'pending') {
      out.waitMs = result.retryInMs ?? 0;
      return out;
    }
    if (Date.now() - started > budgetMs) {
      out.waitMs = 0;
      return out;
    }
  }
}
