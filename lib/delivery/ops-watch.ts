import type { Db } from '@/db/client';
import { env } from '@/env';
import { expireApprovals } from '@/lib/approvals/expire-approvals';
import { closeIdleStreams } from '@/lib/chats/cut-streams';
import { sweepReplyClocks } from '@/lib/chats/sweep-reply-clocks';
import { handOverIdlePullChats } from '@/lib/pull/hand-over-idle-pull';
import { logger } from '@/platform/util/logger';
import { advanceRecoveries, onRecoveryWake } from './advance-recoveries';
import { markFailingWebhooks } from './webhook-failing';

/** How often the embedded engine advances recoveries, and looks for long-failing webhooks and idle pull VAs. */
const RECOVERY_TICK_MS = 2_000;
const FAILING_TICK_MS = 60_000;
/** How often idle streamed replies are closed and spent reply budgets acted on. */
const REPLY_TICK_MS = 1_000;

type Watch = { stop: () => Promise<void> };

/**
 * The embedded engine's background duties beside delivery: advance running recoveries of failed
 * events (every 2 s, and at once when one starts in this process), mark webhooks that had
 * nothing but failures for WEBHOOK_FAILING_AFTER_SECONDS and apply the bot-down fallback of pull VAs
 * idle for PULL_IDLE_FALLBACK_SECONDS (every minute), and every second close
 * idle streamed replies, act on spent reply budgets and expire approval requests (sweepReplyTimers). With
 * DELIVERY_ENGINE=inngest the cron function `sweep-outbox` does all of it, once a minute.
 */
export async function sweepReplyTimers(db: Db, now = new Date()): Promise<void> {
  await closeIdleStreams(db, { idleSeconds: env().STREAM_IDLE_SECONDS, now });
  await sweepReplyClocks(db, { now });
  await expireApprovals(db, { now });
}

export function startOpsWatch(db: Db): Watch {
  let running = true;
  let busy: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const advance = () => {
    if (!running) return;
    clearTimeout(timer);
    busy = busy
      .then(() => advanceRecoveries(db))
      .catch((err) => logger.error('recovery of failed events could not advance', { err }))
      .finally(() => {
        if (!running) return;
        timer = setTimeout(advance, RECOVERY_TICK_MS);
        timer.unref();
      });
  };
  onRecoveryWake(advance);
  advance();
  const mark = async () => {
    await markFailingWebhooks(db, { afterSeconds: env().WEBHOOK_FAILING_AFTER_SECONDS }).catch((err) =>
      logger.error('could not look for failing webhooks', { err }),
    );
    await handOverIdlePullChats(db).catch((err) => logger.error('could not look for idle pull VAs', { err }));
  };
  void mark();
  const failing = setInterval(mark, FAILING_TICK_MS);
  failing.unref();
  let replyBusy: Promise<unknown> | null = null;
  const replies = setInterval(() => {
    if (replyBusy || !running) return;
    replyBusy = sweepReplyTimers(db)
      .catch((err) => logger.error('could not sweep streams and reply budgets', { err }))
      .finally(() => {
        replyBusy = null;
      });
  }, REPLY_TICK_MS);
  replies.unref();
  return {
    async stop() {
      running = false;
      onRecoveryWake(undefined);
      clearTimeout(timer);
      clearInterval(failing);
      clearInterval(replies);
      await busy;
      await replyBusy;
    },
  };
}
