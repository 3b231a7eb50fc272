import type { Db } from '@/db/client';
import { env } from '@/env';
import { logger } from '@/lib/util/logger';
import { advanceRecoveries, onRecoveryWake } from './advance-recoveries';
import { markFailingWebhooks } from './webhook-failing';

/** How often the embedded engine advances recoveries, and looks for long-failing webhooks. */
const RECOVERY_TICK_MS = 2_000;
const FAILING_TICK_MS = 60_000;

type Watch = { stop: () => Promise<void> };

/**
 * The embedded engine's background duties beside delivery: advance running recoveries of failed
 * events (every 2 s, and at once when one starts in this process), and mark webhooks that had
 * nothing but failures for WEBHOOK_FAILING_AFTER_SECONDS (every minute). With
 * DELIVERY_ENGINE=inngest the cron function `sweep-outbox` does both.
 */
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
  const mark = () =>
    markFailingWebhooks(db, { afterSeconds: env().WEBHOOK_FAILING_AFTER_SECONDS }).catch((err) =>
      logger.error('could not look for failing webhooks', { err }),
    );
  void mark();
  const failing = setInterval(mark, FAILING_TICK_MS);
  failing.unref();
  return {
    async stop() {
      running = false;
      onRecoveryWake(undefined);
      clearTimeout(timer);
      clearInterval(failing);
      await busy;
    },
  };
}
