import type { botRequests } from '@/db/schema';
import { databaseErrorCode } from '@/platform/util/database-unavailable';
import { logger } from '@/platform/util/logger';

export type BotRequestRow = typeof botRequests.$inferInsert;

/** Rows per batch: past this many, the rows waiting are written at once. */
export const BATCH_ROWS = 500;
/** Longest a row waits in memory before its batch is written. */
const FLUSH_AFTER_MS = 250;
/** A batch's first buffer; it doubles for a batch of unusually long rows. */
const BATCH_BYTES = 128 * 1024;

/** The table and columns a batch is copied into, in the order of copyLine's fields. */
export const COPY_TARGET =
  'bot_requests (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code, description, trxid, latency_ms, idempotency_key)';

export type BufferStats = { buffered: number; written: number; dropped: number; lost: number };

/**
 * A write after the process closed its database on purpose (at the end of a shutdown or of a
 * test): the rows still buffered are lost, as expected, and not a fault.
 */
export class DatabaseClosedError extends Error {
  constructor() {
    super('the database is closed');
    this.name = 'DatabaseClosedError';
  }
}
type Batch = { data: Buffer; rows: number };

/**
 * Rows waiting to be written, so a request never waits for its own log row. Each row is encoded at
 * once as a line of COPY text into the batch's buffer: nothing of it stays on the JavaScript heap,
 * so the rows of a busy server cost the garbage collector nothing while they wait. A batch goes
 * when BATCH_ROWS have gathered or FLUSH_AFTER_MS after its first row, whichever is first; one
 * batch is written at a time, in order. At most `maxRows` rows wait: past it new rows are dropped
 * and counted (a database that cannot keep up must not grow the process's memory). A batch the
 * database refuses is counted as lost and logged, without its content.
 */
export class RequestLogBuffer {
  private data = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private rows = 0;
  /** Full batches not written yet, oldest first. */
  private ready: Batch[] = [];
  private readyRows = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly stats = { written: 0, dropped: 0, lost: 0 };

  constructor(
    private readonly write: (data: Buffer, rows: number) => Promise<void>,
    private readonly maxRows: () => number,
  ) {}

  push(row: BotRequestRow): void {
    if (this.rows + this.readyRows >= this.maxRows()) {
      this.stats.dropped++;
      if (this.stats.dropped === 1 || this.stats.dropped % 1000 === 0) {
        logger.warn('bot request log buffer full: rows dropped', { dropped: this.stats.dropped });
      }
      return;
    }
    const line = copyLine(row);
    // A UTF-16 code unit takes at most 3 bytes of UTF-8: room for that is room for the line,
    // without measuring it first.
    if (this.used + line.length * 3 > this.data.length) this.grow(line.length * 3);
    this.used += this.data.write(line, this.used);
    this.rows++;
    if (this.rows >= BATCH_ROWS) {
      this.ready.push(this.cut());
      this.schedule(0);
    } else {
      this.schedule(FLUSH_AFTER_MS);
    }
  }

  /** Writes everything buffered now (tests, shutdown); resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  counts(): BufferStats {
    return { buffered: this.rows + this.readyRows, ...this.stats };
  }

  /** The rows gathered so far as one batch, and a fresh buffer for the next. */
  private cut(): Batch {
    const batch = { data: this.data.subarray(0, this.used), rows: this.rows };
    this.readyRows += this.rows;
    this.data = Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
    this.rows = 0;
    return batch;
  }

  private grow(bytes: number): void {
    let size = this.data.length * 2;
    while (size < this.used + bytes) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.data.copy(bigger, 0, 0, this.used);
    this.data = bigger;
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
    if (this.rows) this.ready.push(this.cut());
    while (this.ready.length) {
      const batch = this.ready.shift() as Batch;
      try {
        await this.write(batch.data, batch.rows);
        this.stats.written += batch.rows;
      } catch (err) {
        this.stats.lost += batch.rows;
        // The database out of reach is an outage, logged and answered (503) where it is met; rows
        // lost to it are its consequence, a warning with its reason; so are rows left when the
        // database was closed on purpose. Anything else is a fault.
        const unreachable = err instanceof DatabaseClosedError ? 'closed' : databaseErrorCode(err);
        if (unreachable) logger.warn('bot request log rows not written: database unavailable', { rows: batch.rows, reason: unreachable });
        else logger.error('bot request log rows not written', { rows: batch.rows, err });
      } finally {
        this.readyRows -= batch.rows;
      }
      // Rows that came while this batch was written go in the next one, not after a new timer.
      if (!this.ready.length && this.rows) this.ready.push(this.cut());
    }
  }
}

/** COPY's text format: backslash, tab, newline and carriage return escaped; `\N` is null. */
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
function field(value: string | null | undefined): string {
  if (value == null) return '\\N';
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : value;
}
const int = (value: number | null | undefined) => (value == null ? '\\N' : String(Math.trunc(value)));

/**
 * One row as a line of COPY text, its fields in COPY_TARGET's order. Rows come with their text
 * already storable (recordBotRequest), so one NUL cannot fail a whole batch.
 */
export function copyLine(r: BotRequestRow): string {
  return `${int(r.accountId)}\t${int(r.virtualAgentId)}\t${r.at.toISOString()}\t${field(r.operation)}\t${field(r.method)}\t${field(r.path)}\t${field(r.chatId)}\t${int(r.httpStatus)}\t${int(r.statusCode)}\t${field(r.description)}\t${field(r.trxid)}\t${int(r.latencyMs)}\t${field(r.idempotencyKey)}\n`;
}
