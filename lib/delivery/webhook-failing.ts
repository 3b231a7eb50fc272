import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { users, virtualAgents } from '@/db/schema';
import { notifyOps } from '@/platform/ops/notify-ops';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

/** What this process last wrote about each VA's webhook, and when (see `noteWebhookOutcome`). */
const store = processStore<{ __vaWebhookStates?: Map<number, { failing: boolean; at: number }> }>();
/** How long a state this process wrote is trusted before it is written again (another instance may have changed it). */
const TRUST_MS = 60_000;

/**
 * Keeps `webhook_failing_since` (the first failed attempt since the last delivered one): a failure
 * sets it when unset, a delivery clears it with the failing mark. Attempts are many and the state
 * changes rarely, so this process writes only when the outcome differs from the last one it wrote
 * for the VA, or that one is over a minute old. A delivery that clears a failing mark sends
 * `virtual_agent.webhook_recovered` to the operators (once: the clearing statement is the transition).
 */
export async function noteWebhookOutcome(db: Db, { virtualAgentId, ok }: { virtualAgentId: number; ok: boolean }): Promise<void> {
  store.__vaWebhookStates ??= new Map();
  const known = store.__vaWebhookStates.get(virtualAgentId);
  const failing = !ok;
  if (known && known.failing === failing && Date.now() - known.at < TRUST_MS) return;
  store.__vaWebhookStates.set(virtualAgentId, { failing, at: Date.now() });
  if (failing) {
    await db
      .update(virtualAgents)
      .set({ webhookFailingSince: sql`now()` })
      .where(and(eq(virtualAgents.userId, virtualAgentId), isNull(virtualAgents.webhookFailingSince)));
    return;
  }
  const cleared = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ markedAt: virtualAgents.webhookFailingAt, accountId: virtualAgents.accountId, url: virtualAgents.webhookUrl })
      .from(virtualAgents)
      .where(and(eq(virtualAgents.userId, virtualAgentId), isNotNull(virtualAgents.webhookFailingSince)))
      .for('update');
    if (!row) return null;
    await tx
      .update(virtualAgents)
      .set({ webhookFailingSince: null, webhookFailingAt: null })
      .where(eq(virtualAgents.userId, virtualAgentId));
    return row;
  });
  if (cleared?.markedAt) {
    logger.info('webhook recovered', { virtualAgentId });
    void notifyOps({
      type: 'virtual_agent.webhook_recovered',
      data: {
        account_id: cleared.accountId,
        virtual_agent_id: virtualAgentId,
        webhook_url: cleared.url,
        failing_at: cleared.markedAt.toISOString(),
      },
    });
  }
}

/**
 * Marks the webhooks that have had nothing but failures for `afterSeconds` as failing (the admin
 * pages show it) and sends `virtual_agent.webhook_failing` for each to the operators. The update
 * is the transition, so several instances sweeping at once send each mark once.
 */
export async function markFailingWebhooks(db: Db, { afterSeconds }: { afterSeconds: number }): Promise<number[]> {
  const marked = await db
    .update(virtualAgents)
    .set({ webhookFailingAt: sql`now()` })
    .where(
      and(
        isNotNull(virtualAgents.webhookFailingSince),
        isNull(virtualAgents.webhookFailingAt),
        sql`${virtualAgents.webhookFailingSince} <= now() - ${afterSeconds}::int * interval '1 second'`,
      ),
    )
    .returning({
      virtualAgentId: virtualAgents.userId,
      accountId: virtualAgents.accountId,
      url: virtualAgents.webhookUrl,
      since: virtualAgents.webhookFailingSince,
    });
  for (const m of marked) {
    const [user] = await db.select({ loginId: users.loginId, name: users.name }).from(users).where(eq(users.id, m.virtualAgentId));
    logger.warn('webhook marked failing', { virtualAgentId: m.virtualAgentId, since: m.since });
    void notifyOps({
      type: 'virtual_agent.webhook_failing',
      data: {
        account_id: m.accountId,
        virtual_agent_id: m.virtualAgentId,
        login_id: user?.loginId ?? null,
        name: user?.name ?? null,
        webhook_url: m.url,
        failing_since: m.since?.toISOString() ?? null,
      },
    });
  }
  return marked.map((m) => m.virtualAgentId);
}
