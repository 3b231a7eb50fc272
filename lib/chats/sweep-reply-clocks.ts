import { and, asc, eq, lte } from 'drizzle-orm';
import type { ReplyTimeoutAction } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { chats, replyTimeouts, teams, users, virtualAgents } from '@/db/schema';
import { handOverToFallback } from '@/lib/chats/hand-over-to-fallback';
import { withOutbox } from '@/lib/events/with-outbox';
import { metrics } from '@/platform/metrics/registry';
import { logger } from '@/platform/util/logger';
import { lockChat } from './lock-chat';

export type ReplyTimeout = { chatId: string; virtualAgentId: number; action: ReplyTimeoutAction; waitedSeconds: number };

/** The chats whose reply budget has run out, oldest deadline first (the partial index `chats_reply_due_idx`). */
export function dueReplyClocksQuery(db: Db, { now, limit }: { now: Date; limit: number }) {
  return db
    .select({ id: chats.id, accountId: chats.accountId })
    .from(chats)
    .where(lte(chats.replyDueAt, now))
    .orderBy(asc(chats.replyDueAt))
    .limit(limit);
}

/**
 * Acts on every chat whose customer has waited past its VA's reply budget (reply-clock.ts): records
 * the timeout, counts it, and with `handover` moves the chat to the VA's fallback team by the
 * bot-down fallback's path (the VA gets `chat.unassigned`). Each chat is handled in its own short
 * transaction that locks it and checks again, so instances sweeping at once act on it once, and a
 * reply, typing or a handover that came first wins. A VA set to `handover` that has no fallback
 * team (it was removed) is recorded as `notify`.
 */
export async function sweepReplyClocks(
  db: Db,
  { now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {},
): Promise<ReplyTimeout[]> {
  const due = await dueReplyClocksQuery(db, { now, limit });
  const done: ReplyTimeout[] = [];
  for (const { id, accountId } of due) {
    try {
      const out = await withOutbox(db, async (tx) => {
        const chat = await lockChat(tx, { accountId, chatId: id });
        if (!chat.replyDueAt || chat.replyDueAt > now) return null;
        if (chat.typingUntil && chat.typingUntil > now) return null;
        const [va] =
          chat.assigneeId === null || chat.status === 'closed'
            ? []
            : await tx
                .select({
                  loginId: users.loginId,
                  seconds: virtualAgents.replyTimeoutSeconds,
                  action: virtualAgents.replyTimeoutAction,
                  fallbackTeamId: virtualAgents.fallbackTeamId,
                  fallbackSkill: virtualAgents.fallbackSkill,
                  fallbackTeamName: teams.name,
                })
                .from(virtualAgents)
                .innerJoin(users, eq(users.id, virtualAgents.userId))
                .leftJoin(teams, and(eq(teams.id, virtualAgents.fallbackTeamId), eq(teams.accountId, accountId)))
                .where(eq(virtualAgents.userId, chat.assigneeId));
        if (!va || va.seconds === null) {
          // No VA holds it any more, or its budget was switched off: the clock just stops.
          await tx.update(chats).set({ replyDueAt: null }).where(eq(chats.id, id));
          return null;
        }
        const vaId = chat.assigneeId as number;
        const waitedSeconds = Math.max(0, Math.round((now.getTime() - (chat.awaitingReplySince ?? chat.replyDueAt).getTime()) / 1000));
        const action: ReplyTimeoutAction = va.action === 'handover' && va.fallbackTeamName ? 'handover' : 'notify';
        await tx.insert(replyTimeouts).values({ accountId, virtualAgentId: vaId, chatId: id, action, waitedSeconds, at: now });
        if (action === 'notify') {
          // Counted once per wait: the chat still shows as waiting on the bot until it replies.
          await tx.update(chats).set({ replyDueAt: null }).where(eq(chats.id, id));
        } else {
          const why =
            `Virtual agent ${va.loginId} did not reply within its reply budget of ${va.seconds} s (the customer waited ${waitedSeconds} s); ` +
            `chat transferred to ${va.fallbackTeamName}${va.fallbackSkill ? ` / ${va.fallbackSkill}` : ''}.`;
          await handOverToFallback(tx, {
            accountId,
            chat,
            vaUserId: vaId,
            teamId: va.fallbackTeamId as number,
            skill: va.fallbackSkill,
            why,
            reason: 'reply_timeout',
            now,
          });
        }
        return { chatId: id, virtualAgentId: vaId, action, waitedSeconds, replay: chat.replayRunId !== null };
      });
      if (out) {
        const { replay, ...timeout } = out;
        // A replay's chat (a sandbox's) reaches no live metric.
        if (!replay) metrics().replyTimeouts.inc({ action: timeout.action });
        logger.info('reply budget ran out', { chatId: timeout.chatId, virtualAgentId: timeout.virtualAgentId, action: timeout.action });
        done.push(timeout);
      }
    } catch (err) {
      logger.error('reply budget could not be applied', { chatId: id, err });
    }
  }
  return done;
}
