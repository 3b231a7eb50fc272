import { openedHandle } from '@/db/client';
import { env } from '@/env';
import { processStore } from '@/platform/util/process-store';
import { COPY_TARGET, DatabaseClosedError, RequestLogBuffer } from './request-log-buffer';

// One buffer per process: route bundles and the instrumentation hook share it through globalThis.
const store = processStore<{ __vaRequestLog?: RequestLogBuffer }>();

/** The process's request log buffer, writing to the process's database. */
export function requestLog(): RequestLogBuffer {
  store.__vaRequestLog ??= new RequestLogBuffer(
    async (data) => {
      // After closeDb() (shutdown, the end of a test) rows still buffered are lost, not written to a
      // database opened again for them: that connection would keep the process alive.
      const handle = openedHandle();
      if (!handle) throw new DatabaseClosedError();
      await (await handle).copyIn(COPY_TARGET, data);
    },
    () => env().BOT_REQUEST_LOG_MAX_BUFFER,
  );
  return store.__vaRequestLog;
}

/** Writes the rows still in memory: on shutdown, and in tests before reading the log. */
export function flushRequestLog(): Promise<void> {
  return store.__vaRequestLog ? store.__vaRequestLog.flush() : Promise.resolve();
}
