import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newChatId(): string {
  return randomUUID();
}

/**
 * Trace IDs: `transid` of messages, `transaction_id` of events, `trxid` of responses. Version 7
 * UUIDs (RFC 9562): they start with the time, so each index over them (messages, events, the
 * request log) grows at its right edge instead of touching a random page per insert. Chat IDs stay
 * random (version 4): people search chats by the first characters of the ID, which must tell chats
 * apart.
 *
 * Every request makes one, so the random bits come from a pool filled 4 KiB at a time rather than
 * from a call into the system's generator per ID (the library's default, which also goes through
 * Next's instrumented `crypto.getRandomValues`): 0.4 µs an ID instead of 2 µs, measured in a loop.
 * (A CPU profile of `npm start` under bench:api had put that call at 5 % of the server's busy
 * time; the direct measure makes it about 0.5 %: the profiler over-counts short native calls.)
 * Within one millisecond the IDs still count up (the library's 31-bit sequence, started at a
 * random value each new millisecond), so they stay in the order they were made.
 */
export function newTraceId(): string {
  const random = randomBits();
  const now = Date.now();
  if (now > trace.msecs) {
    trace.msecs = now;
    // The sequence starts at random bits each millisecond; its top bit is kept clear for counting.
    trace.seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
  } else {
    trace.seq = (trace.seq + 1) | 0;
    // Past 2^31 IDs in one millisecond (or a clock that stepped back): borrow the next millisecond.
    if (trace.seq === 0) trace.msecs++;
  }
  return uuidv7({ random, msecs: trace.msecs, seq: trace.seq });
}

const trace = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** 16 fresh random bytes (a view on the pool, valid until the next call). */
function randomBits(): Uint8Array {
  if (poolAt + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 16;
  return pool.subarray(poolAt - 16, poolAt);
}

const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Whether `id` has the form of one of our trace IDs (a version 7 UUID), before it is given to a uuid column. */
export function isTraceId(id: string): boolean {
  return TRACE_ID.test(id);
}

/** When a trace ID was made, in milliseconds since the epoch: its first 48 bits. */
export function traceIdTime(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

const MAX_TRACE_MS = 2 ** 48 - 1;

/**
 * The lowest trace ID of the millisecond `ms`: every trace ID made at `ms` or later sorts at or
 * above it (a uuid sorts by its bytes, and a version 7 UUID's first bytes are its time), so a
 * range of times is a range of trace IDs.
 */
export function traceIdFloor(ms: number): string {
  const hex = Math.min(Math.max(Math.floor(ms), 0), MAX_TRACE_MS)
    .toString(16)
    .padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}
