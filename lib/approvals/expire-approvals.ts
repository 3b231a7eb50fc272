import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { approvals } from '@/db/schema';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { withOutbox } from '@/lib/events/with-outbox';
import { logger } from '@/platform/util/logger';

/** The pending requests past their expiry, soonest first (the partial index `approvals_pending_expiry_idx`). */
function dueApprovalsQuery(db: Db, { now, limit }: { now: Date; limit: number }) {
  return db
    .select({ id: approvals.id, accountId: approvals.accountId, chatId: approvals.chatId })
    .from(approvals)
    .where(and(eq(approvals.status, 'pending'), lte(approvals.expiresAt, now)))
    .orderBy(asc(approvals.expiresAt))
    .limit(limit);
}

/**
 * A periodic duty: every pending request past its expiry becomes `expired` and its VA receives
 * `approval.expired`. Each in its own short transaction that locks the chat, then the request, and
 * checks it is still pending: instances running the duty at once, or a person deciding at the
 * last moment, act on it once. State lives in the database, so the duty survives restarts and
 * any instance (or Inngest's cron) may run it. Returns the ids it expired.
 */
export async function expireApprovals(db: Db, { now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {}): Promise<string[]> {
  const due = await dueApprovalsQuery(db, { now, limit });
  const done: string[] = [];
  for (const { id, accountId, chatId } of due) {
    try {
      const expired = await withOutbox(db, async (tx) => {
        const chat = await lockChat(tx, { accountId, chatId });
        const [row] = await tx.select().from(approvals).where(eq(approvals.id, id)).for('update');
        if (row?.status !== 'pending' || row.expiresAt > now) return false;
        await tx.update(approvals).set({ status: 'expired', updatedAt: now }).where(eq(approvals.id, id));
        await enqueueEvent(tx, {
          accountId,
          chat: eventChatOf(chat),
          vaUserId: row.vaUserId,
          cause: { type: 'approval.expired', approvalId: id, action: row.action, at: row.expiresAt },
        });
        return true;
      });
      if (expired) done.push(id);
    } catch (err) {
      logger.error('approval request could not be expired', { approvalId: id, err });
    }
  }
  return done;
}
