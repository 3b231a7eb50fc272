import { openedDb } from '@/db/client';
import { env } from '@/env';
import { insertBotRequests, RequestLogBuffer } from './request-log-buffer';

// One buffer per process: route bundles and the instrumentation hook share it through globalThis.
const store = globalThis as unknown as { __vaRequestLog?: RequestLogBuffer };

/** The process's request log buffer, writing to the process's database. */
export function requestLog(): RequestLogBuffer {
  store.__vaRequestLog ??= new RequestLogBuffer(
    async (rows) => {
      // After closeDb() (shutdown, the end of a test) rows still buffered are lost, not written to a
      // database opened again for them: that connection would keep the process alive.
      const db = openedDb();
      if (!db) throw new Error('the database is closed');
      await insertBotRequests(await db, rows);
    },
    () => env().BOT_REQUEST_LOG_MAX_BUFFER,
  );
  return store.__vaRequestLog;
}

/** Writes the rows still in memory: on shutdown, and in tests before reading the log. */
export function flushRequestLog(): Promise<void> {
  return store.__vaRequestLog ? store.__vaRequestLog.flush() : Promise.resolve();
}
