import { checkpointEmbedded } from '@/db/client';
import { env } from '@/env';
import { stopListeningForRevokedTokens } from '@/lib/bot-auth/token-cache';
import { stopDelivery } from '@/lib/delivery/start-delivery';
import { stopDuties } from '@/lib/duties/start-duties';
import { endPullReaders } from '@/lib/pull/readers';
import { flushRequestLog } from '@/lib/request-log/request-log';
import { startDraining } from '@/platform/ops/draining';
import { flushLogs, logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

type Listener = (signal: NodeJS.Signals) => void;
const store = processStore<{ __vaShutdownInstalled?: boolean }>();

/**
 * On SIGTERM or SIGINT: readiness turns 503, event streams and long-polls end, delivery stops claiming, calls in flight get
 * SHUTDOWN_GRACE_MS to finish (then their leases are released for another instance), the bot
 * request log's buffered rows are written, and only
 * then the listeners that were there before (Next's: close the server, exit) run. Without any,
 * the process exits here.
 */
export function installShutdown(): void {
  if (store.__vaShutdownInstalled) return;
  store.__vaShutdownInstalled = true;
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const before = process.listeners(signal) as Listener[];
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void (async () => {
        const graceMs = env().SHUTDOWN_GRACE_MS;
        startDraining();
        // Long-polls answer and event streams end now, so their clients reconnect to another
        // instance and resume from their cursor (nothing is lost or repeated).
        const readers = endPullReaders();
        logger.info('shutting down: delivery stops claiming', { signal, graceMs, pullReaders: readers });
        try {
          // The periodic duties first: a run in progress finishes (each is bounded), none starts.
          await stopDuties();
          await stopDelivery({ graceMs });
          logger.info('delivery stopped');
        } catch (err) {
          logger.error('delivery did not stop cleanly', { err });
        }
        await stopListeningForRevokedTokens();
        await flushRequestLog().catch((err) => logger.error('bot request log not flushed', { err }));
        await checkpointEmbedded().catch((err) => logger.error('embedded database not checkpointed', { err }));
        // pino writes asynchronously: without this, the framework's listener (which may write
        // and exit at once) could print before the lines above.
        await flushLogs().catch(() => {});
        if (before.length) for (const listener of before) listener(signal);
        else process.exit(0);
      })();
    });
  }
}
