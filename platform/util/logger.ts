import pino from 'pino';
import { env } from '@/env';
import { loggableError } from './loggable-error';
import { processStore } from './process-store';

type Fields = Record<string, unknown>;

// The request context lives in lib/http; it registers how to read the current request's trxid,
// so every line logged while serving a request carries it without this module depending on http.
const store = processStore<{
  __vaLogContext?: () => string | undefined;
  __vaPino?: pino.Logger;
  __vaLogStream?: ReturnType<typeof pino.destination>;
  __vaLogDivert?: (line: LogLine) => boolean;
}>();

/** One line as the code logged it, before formatting and redaction. */
export type LogLine = { level: 'debug' | 'info' | 'warn' | 'error'; msg: string; fields: Fields };

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
    // stdout, written asynchronously; minLength 1 writes each line at once as pino's default does,
    // and makes the stream's flush(cb) wait for the write under way (flushLogs below).
    store.__vaLogStream = pino.destination({ dest: 1, sync: false, minLength: 1 });
    store.__vaPino = pino(
      {
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
      },
      store.__vaLogStream,
    );
  }
  return store.__vaPino;
}

function log(level: LogLine['level'], msg: string, fields?: Fields) {
  if (store.__vaLogDivert?.({ level, msg, fields: fields ?? {} })) return;
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
 * Waits (up to `timeoutMs`) until every line logged so far is written: pino writes stdout
 * asynchronously, so a line logged just before something else writes synchronously (or the process
 * exits) could otherwise come out after it.
 */
export async function flushLogs(timeoutMs = 1_000): Promise<void> {
  const stream = store.__vaLogStream;
  if (!stream || !store.__vaPino) return;
  await Promise.race([
    new Promise<void>((resolve) => {
      try {
        stream.flush(() => resolve());
      } catch {
        resolve();
      }
    }),
    new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
  ]);
}

/**
 * For tests that provoke a failure on purpose: each line is first offered to `take`, and a line it
 * takes (answers true for) is not written, so an expected error is checked by the test instead of
 * printed as if something went wrong. Answers the function that ends the diversion.
 */
export function divertLogs(take: (line: LogLine) => boolean): () => void {
  store.__vaLogDivert = take;
  return () => {
    if (store.__vaLogDivert === take) store.__vaLogDivert = undefined;
  };
}
