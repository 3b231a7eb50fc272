import { and, asc, count, desc, eq, gte, isNotNull } from 'drizzle-orm';
import type { VaReplies } from '@/contracts/admin/schemas/virtual-agent';
import type { Db } from '@/db/client';
import { chats, replyTimeouts, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

const SHOWN = 20;

/** The chats a VA holds whose customer waits for it, longest first (the partial index `chats_awaiting_reply_idx`). */
export function waitingOnVaQuery(db: Db, { virtualAgentId, limit }: { virtualAgentId: number; limit: number }) {
  return db
    .select({ chatId: chats.id, since: chats.awaitingReplySince, dueAt: chats.replyDueAt })
    .from(chats)
    .where(and(eq(chats.assigneeId, virtualAgentId), isNotNull(chats.awaitingReplySince)))
    .orderBy(asc(chats.awaitingReplySince))
    .limit(limit);
}

/** A VA's latest reply timeouts, newest first (the index `reply_timeouts_va_idx`). */
export function latestReplyTimeoutsQuery(db: Db, { virtualAgentId, limit }: { virtualAgentId: number; limit: number }) {
  return db
    .select()
    .from(replyTimeouts)
    .where(eq(replyTimeouts.virtualAgentId, virtualAgentId))
    .orderBy(desc(replyTimeouts.at), desc(replyTimeouts.id))
    .limit(limit);
}

/** What the VA page shows of the reply budget: the chats waiting on the bot now and its reply timeouts. */
export async function listVaReplies(
  db: Db,
  { accountId, virtualAgentId, now = new Date() }: { accountId: number; virtualAgentId: number; now?: Date },
): Promise<VaReplies> {
  const [va] = await db
    .select({ id: virtualAgents.userId })
    .from(virtualAgents)
    .where(and(eq(virtualAgents.userId, virtualAgentId), eq(virtualAgents.accountId, accountId)));
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${virtualAgentId}` });
  const [waiting, [{ n }], recent, byAction] = await Promise.all([
    waitingOnVaQuery(db, { virtualAgentId, limit: SHOWN }),
    db
      .select({ n: count() })
      .from(chats)
      .where(and(eq(chats.assigneeId, virtualAgentId), isNotNull(chats.awaitingReplySince))),
    latestReplyTimeoutsQuery(db, { virtualAgentId, limit: SHOWN }),
    db
      .select({ action: replyTimeouts.action, n: count() })
      .from(replyTimeouts)
      .where(and(eq(replyTimeouts.virtualAgentId, virtualAgentId), gte(replyTimeouts.at, new Date(now.getTime() - 24 * 3600_000))))
      .groupBy(replyTimeouts.action),
  ]);
  const counted = Object.fromEntries(byAction.map((r) => [r.action, Number(r.n)]));
  return {
    waiting_count: Number(n),
    waiting: waiting.map((w) => ({
      chat_id: w.chatId,
      since: (w.since as Date).toISOString(),
      reply_due_at: w.dueAt?.toISOString() ?? null,
    })),
    timeouts_24h: { handover: counted.handover ?? 0, notify: counted.notify ?? 0 },
    timeouts: recent.map((r) => ({ chat_id: r.chatId, action: r.action, waited_seconds: r.waitedSeconds, at: r.at.toISOString() })),
  };
}
