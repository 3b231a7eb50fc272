import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { botRequests } from '@/db/schema';
import { logger } from '@/lib/util/logger';

export type BotRequestRow = typeof botRequests.$inferInsert;

/** Rows per INSERT statement (13 parameters each, far below PostgreSQL's 65,535). */
export const BATCH_ROWS = 500;
/** Longest a row waits in memory before its batch is written. */
export const FLUSH_AFTER_MS = 250;

export type BufferStats = { buffered: number; written: number; dropped: number; lost: number };

/**
 * Rows waiting for their multi-row INSERT, so a request never waits for its own log row. A batch
 * goes when BATCH_ROWS have gathered or FLUSH_AFTER_MS after the first one came, whichever is first;
 * one batch is written at a time, in order. The buffer holds at most `maxRows`: past it new rows
 * are dropped and counted (a database that cannot keep up must not grow the process's memory). A
 * batch the database refuses is counted as lost and logged, without its content.
 */
export class RequestLogBuffer {
  private rows: BotRequestRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly stats = { written: 0, dropped: 0, lost: 0 };

  constructor(
    private readonly write: (rows: BotRequestRow[]) => Promise<void>,
    private readonly maxRows: () => number,
  ) {}

  push(row: BotRequestRow): void {
    if (this.rows.length >= this.maxRows()) {
      this.stats.dropped++;
      if (this.stats.dropped === 1 || this.stats.dropped % 1000 === 0) {
        logger.warn('bot request log buffer full: rows dropped', { dropped: this.stats.dropped });
      }
      return;
    }
    this.rows.push(row);
    this.schedule(this.rows.length >= BATCH_ROWS ? 0 : FLUSH_AFTER_MS);
  }

  /** Writes everything buffered now (tests, shutdown); resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  counts(): BufferStats {
    return { buffered: this.rows.length, ...this.stats };
  }

  private schedule(ms: number): void {
    const due = Date.now() + ms;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
    // A pending write must not keep a finished process (a test, a script) alive; shutdown flushes.
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (this.rows.length) {
      const batch = this.rows.splice(0, BATCH_ROWS);
      try {
        await this.write(batch);
        this.stats.written += batch.length;
      } catch (err) {
        this.stats.lost += batch.length;
        logger.error('bot request log rows not written', { rows: batch.length, err });
      }
    }
  }
}

/**
 * The INSERT of one batch: the rows travel as one JSON parameter that PostgreSQL unpacks
 * (json_to_recordset), so a batch costs one short statement whatever its size, instead of the
 * query builder rendering 13 placeholders per row. Rows come with their text already storable
 * (recordBotRequest), so one NUL cannot fail a whole batch. Each row's VA and account come from the
 * token that authenticated the call, so they always belong together; the rows are not checked
 * against `users` again (that look-up was a tenth of the write's cost), and the readers join
 * `users`, so a row whose VA were ever removed would simply not be shown until retention deletes it.
 */
export async function insertBotRequests(db: Db, rows: BotRequestRow[]): Promise<void> {
  if (!rows.length) return;
  await db.execute(sql`
    insert into ${botRequests} (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code,
      description, trxid, latency_ms, idempotency_key)
    select "accountId", "virtualAgentId", "at", "operation", "method", "path", "chatId", "httpStatus", "statusCode",
      "description", "trxid", "latencyMs", "idempotencyKey"
    from json_to_recordset(${JSON.stringify(rows)}::json) as r("accountId" int, "virtualAgentId" int, "at" timestamptz,
      "operation" text, "method" text, "path" text, "chatId" text, "httpStatus" int, "statusCode" int, "description" text,
      "trxid" text, "latencyMs" int, "idempotencyKey" text)`);
}
