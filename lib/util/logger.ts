import pino from 'pino';
import { env } from '@/env';
import { loggableError } from './loggable-error';
import { processStore } from './process-store';

type Fields = Record<string, unknown>;

// The request context lives in lib/http; it registers how to read the current request's trxid,
// so every line logged while serving a request carries it without this module depending on http.
const store = processStore<{ __vaLogContext?: () => string | undefined; __vaPino?: pino.Logger }>();

/** Called once by the request context: returns the trxid of the request being served, if any. */
export function setLogContext(read: () => string | undefined): void {
  store.__vaLogContext = read;
}

/** Field names whose values never reach a log line, at any depth pino's redaction reaches. */
const SECRET_KEYS = [
  'password',
  'token',
  'access_token',
  'accessToken',
  'api_key',
  'apiKey',
  'secret',
  'signingSecret',
  'signing_secret',
  'authorization',
  'cookie',
  'text',
  'body',
];

function base(): pino.Logger {
  if (!store.__vaPino) {
    store.__vaPino = pino({
      level: env().LOG_LEVEL,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`)], censor: '[redacted]' },
      serializers: { err: loggableError },
      mixin: () => {
        const trxid = store.__vaLogContext?.();
        return trxid ? { trxid } : {};
      },
    });
  }
  return store.__vaPino;
}

function log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields?: Fields) {
  const l = base();
  if (!l.isLevelEnabled(level)) return;
  l[level](fields ?? {}, msg);
}

/**
 * One-line JSON logs (pino) at LOG_LEVEL. A line written while a request is served carries its
 * `trxid`. Pass errors as `err`; never pass tokens, keys or customer text (known field names are
 * redacted anyway).
 */
export const logger = {
  debug: (msg: string, fields?: Fields) => log('debug', msg, fields),
  info: (msg: string, fields?: Fields) => log('info', msg, fields),
  warn: (msg: string, fields?: Fields) => log('warn', msg, fields),
  error: (msg: string, fields?: Fields) => log('error', msg, fields),
};

/**
 * Waits (up to `timeoutMs`) until every line logged so far is written. pino writes stdout through
 * sonic-boom asynchronously, and its `flush()` returns at once when lines go out as they come
 * (pino's setting), even while a write is still under way: a line logged just before something
 * else writes synchronously (or exits) can then come out after it. So this watches the stream
 * itself until nothing is queued or being written (sonic-boom 4's `_writing` and `_len`).
 */
export async function flushLogs(timeoutMs = 1_000): Promise<void> {
  const l = store.__vaPino;
  if (!l) return;
  const stream = (l as unknown as Record<symbol, { _writing?: boolean; _len?: number } | undefined>)[pino.symbols.streamSym];
  const deadline = Date.now() + timeoutMs;
  while (stream && (stream._writing || (stream._len ?? 0) > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Drops the configured logger (tests that change LOG_LEVEL). */
export function resetLogger(): void {
  store.__vaPino = undefined;
}
