import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { VirtualAgentHealth } from '@/contracts/schemas/admin-delivery';
import type { Db } from '@/db/client';
import { deliveryAttempts, events, users, virtualAgents } from '@/db/schema';

const DAY_MS = 24 * 60 * 60_000;
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const epochToIso = (v: number | null) => (v === null ? null : new Date(v * 1000).toISOString());

/** Every VA of the account with the outcome of its delivery attempts over the last 24 hours and its backlog. */
export async function listVirtualAgentHealth(
  db: Db,
  { accountId, now = new Date() }: { accountId: number; now?: Date },
): Promise<VirtualAgentHealth[]> {
  const since = new Date(now.getTime() - DAY_MS);
  const notOk = sql`${deliveryAttempts.httpStatus} is distinct from 200`;

  const vas = await db
    .select({ id: virtualAgents.userId, loginId: users.loginId })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(virtualAgents.accountId, accountId))
    .orderBy(asc(virtualAgents.userId));
  if (!vas.length) return [];

  const attempts = await db
    .select({
      id: events.virtualAgentId,
      attempts: sql`count(*)`.mapWith(num),
      delivered: sql`count(*) filter (where ${deliveryAttempts.httpStatus} = 200)`.mapWith(num),
      lastAttemptAt: sql`extract(epoch from max(${deliveryAttempts.startedAt}))::float8`.mapWith(numOrNull),
      lastError: sql<
        string | null
      >`(array_agg(coalesce(${deliveryAttempts.error}, 'HTTP ' || ${deliveryAttempts.httpStatus}::text) order by ${deliveryAttempts.startedAt} desc) filter (where ${notOk}))[1]`,
      lastErrorAt: sql`extract(epoch from max(${deliveryAttempts.startedAt}) filter (where ${notOk}))::float8`.mapWith(numOrNull),
    })
    .from(deliveryAttempts)
    .innerJoin(events, eq(events.id, deliveryAttempts.eventId))
    .where(and(eq(events.accountId, accountId), gte(deliveryAttempts.startedAt, since)))
    .groupBy(events.virtualAgentId);

  const outbox = await db
    .select({
      id: events.virtualAgentId,
      pending: sql`count(*) filter (where ${events.status} = 'pending')`.mapWith(num),
      failed:
        sql`count(*) filter (where ${events.status} = 'failed' and ${events.failedAt} >= ${since.toISOString()}::timestamptz)`.mapWith(num),
    })
    .from(events)
    .where(
      and(
        eq(events.accountId, accountId),
        sql`(${events.status} = 'pending' or ${events.failedAt} >= ${since.toISOString()}::timestamptz)`,
      ),
    )
    .groupBy(events.virtualAgentId);

  const attemptsBy = new Map(attempts.map((a) => [a.id, a]));
  const outboxBy = new Map(outbox.map((o) => [o.id, o]));
  return vas.map((va) => {
    const a = attemptsBy.get(va.id);
    const o = outboxBy.get(va.id);
    const total = a?.attempts ?? 0;
    return {
      virtual_agent_id: va.id,
      login_id: va.loginId,
      attempts: total,
      delivered: a?.delivered ?? 0,
      success_rate: total ? (a?.delivered ?? 0) / total : null,
      failed_events: o?.failed ?? 0,
      pending: o?.pending ?? 0,
      last_attempt_at: epochToIso(a?.lastAttemptAt ?? null),
      last_error: a?.lastError ?? null,
      last_error_at: epochToIso(a?.lastErrorAt ?? null),
    };
  });
}
