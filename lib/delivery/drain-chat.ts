import type { Db } from '@/db/client';
import { claimDueEventOfChat } from './claim-due-events';
import { deliverClaimedEvent } from './deliver-claimed-event';
import { msUntilChatDue } from './ms-until-chat-due';

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
  let event = await claimDueEventOfChat(db, { chatId, virtualAgentId });
  for (;;) {
    if (!event) {
      const ms = await msUntilChatDue(db, { chatId, virtualAgentId });
      out.waitMs = ms === null ? null : Math.max(0, Math.ceil(ms));
      return out;
    }
    // Past the budget, the next event is left for the next run instead of being leased now.
    const overBudget = Date.now() - started > budgetMs;
    const result = await deliverClaimedEvent(db, { event, chain: !overBudget });
    out.attempts++;
    if (result.status === 'delivered') out.delivered++;
    if (result.status === 'failed') out.failed++;
    if (result.status === 'pending') {
      out.waitMs = result.retryInMs ?? 0;
      return out;
    }
    if (overBudget) {
      out.waitMs = 0;
      return out;
    }
    event = result.next ?? (await claimDueEventOfChat(db, { chatId, virtualAgentId }));
  }
}
