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

/** A PostgreSQL array literal of texts: each quoted, `"` and `\` escaped, null as NULL. */
function textArray(values: (string | null | undefined)[]): string {
  return `{${values.map((v) => (v == null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}

/** A PostgreSQL array literal of integers, null as NULL. */
function intArray(values: (number | null | undefined)[]): string {
  return `{${values.map((v) => (v == null ? 'NULL' : String(v))).join(',')}}`;
}

/**
 * The INSERT of one batch: each column travels as one array literal that PostgreSQL unnests, so a
 * batch costs one short statement whatever its size. Of the ways `npm run bench:request-log`
 * compares, this one costs PostgreSQL and Node least together: a JSON document of the rows
 * (json_to_recordset) costs PostgreSQL about 3 µs more a row, and the driver's own array
 * parameters cost Node about half as much again as these literals.
 * The time travels as epoch milliseconds. Rows come with their text already storable
 * (recordBotRequest), so one NUL cannot fail a whole batch. Each row's VA and account come from the
 * token that authenticated the call, so they always belong together; the readers join `users`.
 */
export async function insertBotRequests(db: Db, rows: BotRequestRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof BotRequestRow>(key: K) => rows.map((r) => r[key]);
  await db.execute(sql`
    insert into ${botRequests} (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code,
      description, trxid, latency_ms, idempotency_key)
    select a, v, to_timestamp(t::float8 / 1000), o, m, p, c, h, s, d, x, l, k
    from unnest(${intArray(col('accountId'))}::text::int[], ${intArray(col('virtualAgentId'))}::text::int[],
      ${intArray(rows.map((r) => r.at.getTime()))}::text::bigint[], ${textArray(col('operation'))}::text::text[],
      ${textArray(col('method'))}::text::text[], ${textArray(col('path'))}::text::text[], ${textArray(col('chatId'))}::text::text[],
      ${intArray(col('httpStatus'))}::text::int[], ${intArray(col('statusCode'))}::text::int[],
      ${textArray(col('description'))}::text::text[], ${textArray(col('trxid'))}::text::uuid[], ${intArray(col('latencyMs'))}::text::int[],
      ${textArray(col('idempotencyKey'))}::text::text[]) as r(a, v, t, o, m, p, c, h, s, d, x, l, k)`);
}
