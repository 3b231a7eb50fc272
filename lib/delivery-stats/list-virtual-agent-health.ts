import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { VirtualAgentHealth } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { events, users, virtualAgents } from '@/db/schema';
import { attemptsByVirtualAgent, num } from './rollups';

const DAY_MS = 24 * 60 * 60_000;
const epochToIso = (v: number | null) => (v === null ? null : new Date(v * 1000).toISOString());

/**
 * Every VA of the account with the outcome of its delivery attempts over the last 24 hours (from
 * the per-minute rollups) and its backlog (pending and recently failed events, each read through
 * its own partial index).
 */
export async function listVirtualAgentHealth(
  db: Db,
  { accountId, now = new Date() }: { accountId: number; now?: Date },
): Promise<VirtualAgentHealth[]> {
  const since = new Date(now.getTime() - DAY_MS);

  const vas = await db
    .select({ id: virtualAgents.userId, loginId: users.loginId })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(virtualAgents.accountId, accountId))
    .orderBy(asc(virtualAgents.userId));
  if (!vas.length) return [];

  const attemptsBy = await attemptsByVirtualAgent(db, { accountId, since });
  const pending = await db
    .select({ id: events.virtualAgentId, count: sql`count(*)`.mapWith(num) })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.status, 'pending')))
    .groupBy(events.virtualAgentId);
  const failed = await db
    .select({ id: events.virtualAgentId, count: sql`count(*)`.mapWith(num) })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.status, 'failed'), gte(events.failedAt, since)))
    .groupBy(events.virtualAgentId);

  const pendingBy = new Map(pending.map((p) => [p.id, p.count]));
  const failedBy = new Map(failed.map((f) => [f.id, f.count]));
  return vas.map((va) => {
    const a = attemptsBy.get(va.id);
    const total = a?.attempts ?? 0;
    return {
      virtual_agent_id: va.id,
      login_id: va.loginId,
      attempts: total,
      delivered: a?.delivered ?? 0,
      success_rate: total ? (a?.delivered ?? 0) / total : null,
      failed_events: failedBy.get(va.id) ?? 0,
      pending: pendingBy.get(va.id) ?? 0,
      last_attempt_at: epochToIso(a?.lastAttemptAt ?? null),
      last_error: a?.lastError ?? null,
      last_error_at: epochToIso(a?.lastErrorAt ?? null),
    };
  });
}
