import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { env } from '@/env';
import { serializeEvent } from '@/lib/events/serialize-event';
import { signWebhook } from '@/lib/events/sign-webhook';
import { checkWebhookUrl, RESERVED_HEADERS, resolvePublic } from '@/lib/webhooks/url-policy';
import { processStore } from '@/platform/util/process-store';

export type SendInput = {
  url: string;
  staticHeaders: Record<string, string>;
  signingSecret: string;
  /** During a rotation's overlap: its signature is sent too (Standard Webhooks allows several). */
  previousSigningSecret?: string | null;
  transactionId: string;
  body: Record<string, unknown>;
  timeoutMs?: number;
};

/** What one attempt saw; `httpStatus` is null when no answer came. */
export type SendOutcome = {
  ok: boolean;
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** The answer's `Retry-After`, in ms (not clamped); null when absent or unreadable. */
  retryAfterMs?: number | null;
  /**
   * The call failed in this process before it reached the bot (out of file descriptors, ports or
   * memory): nothing about the bot's endpoint, so it counts neither in the event's retry schedule
   * nor in the endpoint's circuit.
   */
  local?: boolean;
};

/**
 * System errors that say this process, not the endpoint, is out of something: descriptors (its
 * own or the system's), local ports, kernel buffers or memory.
 */
const LOCAL_ERRNOS = new Set(['EMFILE', 'ENFILE', 'EADDRNOTAVAIL', 'ENOBUFS', 'ENOMEM']);

/** Whether an error thrown or emitted by a call is one of this process's own (see `local`). */
function isLocalFailure(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && LOCAL_ERRNOS.has(code);
}

/** Bytes of the answer read at most; the rest is dropped with the connection. */
const READ_LIMIT = 4096;
/** Characters of the answer kept with the attempt. */
export const EXCERPT_CHARS = 1024;

// node:http with keep-alive: undici's fetch costs several times the CPU per request. Idle sockets
// close before the usual 5 s server keep-alive, so a reused socket is rarely one the peer just closed.
const store = processStore<{ __vaWebhookAgents?: { http: http.Agent; https: https.Agent } }>();
if (!store.__vaWebhookAgents) {
  store.__vaWebhookAgents = {
    http: new http.Agent({ keepAlive: true, timeout: 4_000, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, timeout: 4_000, scheduling: 'lifo' }),
  };
}
const agents = store.__vaWebhookAgents;

/**
 * POSTs one event, signed with Standard Webhooks headers, to the address the host resolved to
 * after the address policy allowed it. Never follows redirects; success is HTTP 200 exactly.
 * Never throws: every failure is described in the outcome.
 */
export async function sendWebhook(input: SendInput): Promise<SendOutcome> {
  const timeoutMs = input.timeoutMs ?? env().DELIVERY_TIMEOUT_MS;
  const startedAt = new Date();
  const t0 = performance.now();
  const done = (o: Omit<SendOutcome, 'startedAt' | 'durationMs' | 'ok'>): SendOutcome => ({
    ...o,
    ok: o.httpStatus === 200,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
  });

  // One deadline for the whole attempt: DNS, connect, request and answer. A plain timer and a
  // callback for the phase under way: an AbortController per call was a measurable share of the
  // engine's CPU at thousands of calls a second.
  const deadline: Deadline = { expired: false, onExpiry: null };
  const timer = setTimeout(() => {
    deadline.expired = true;
    deadline.onExpiry?.();
  }, timeoutMs);
  const timeoutError = `timed out after ${timeoutMs} ms`;
  try {
    const verdict = await checkedUrl(input.url);
    if (!verdict.ok) return done({ httpStatus: null, error: `URL refused: ${verdict.reason}`, responseExcerpt: null });
    const url = verdict.url;
    const host = url.hostname.replace(/^\[|\]$/g, '');

    const resolved = await new Promise<{ address: string; family: 4 | 6 } | Error | 'timeout'>((resolve) => {
      deadline.onExpiry = () => resolve('timeout');
      resolvePublic(host).then(resolve, resolve);
    });
    deadline.onExpiry = null;
    if (resolved === 'timeout') return done({ httpStatus: null, error: `${timeoutError} (DNS)`, responseExcerpt: null });
    // "… is a refused address" (the address policy) or "… could not be resolved".
    if (resolved instanceof Error) return done({ httpStatus: null, error: resolved.message, responseExcerpt: null });

    const payload = serializeEvent(input.body, startedAt);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.staticHeaders)) {
      if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
    headers['user-agent'] = 'va-chat-webhooks/1';
    headers['webhook-id'] = input.transactionId;
    headers['webhook-timestamp'] = String(Math.floor(startedAt.getTime() / 1000));
    headers['webhook-signature'] = signWebhook({
      transactionId: input.transactionId,
      at: startedAt,
      payload,
      secrets: [input.signingSecret, input.previousSigningSecret],
    });

    return done(await post({ url, host, pinned: resolved, headers, payload, deadline, timeoutError }));
  } catch (err) {
    const error = (err as Error).message || String(err);
    return done({ httpStatus: null, error, responseExcerpt: null, ...(isLocalFailure(err) && { local: true }) });
  } finally {
    clearTimeout(timer);
  }
}

/** The attempt's deadline: whether it passed, and what to stop when it does. */
type Deadline = { expired: boolean; onExpiry: (() => void) | null };

/**
 * The address policy's verdict on a webhook URL (without resolving it: `resolvePublic` checks the
 * address each call connects to), kept per URL and policy setting: the same few URLs are checked
 * at every call.
 */
const verdicts = new Map<string, ReturnType<typeof checkWebhookUrl>>();
function checkedUrl(raw: string): ReturnType<typeof checkWebhookUrl> {
  const key = `${env().WEBHOOK_ALLOW_PRIVATE ? 1 : 0}${raw}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    if (verdicts.size >= 1_000) verdicts.clear();
    verdict = checkWebhookUrl(raw, { resolve: false });
    verdicts.set(key, verdict);
  }
  return verdict;
}

type Answer = Omit<SendOutcome, 'startedAt' | 'durationMs' | 'ok'>;

function post({
  url,
  host,
  pinned,
  headers,
  payload,
  deadline,
  timeoutError,
}: {
  url: URL;
  host: string;
  pinned: { address: string; family: 4 | 6 };
  headers: Record<string, string>;
  payload: string;
  deadline: Deadline;
  timeoutError: string;
}): Promise<Answer> {
  const isHttps = url.protocol === 'https:';
  // Connect to the address that passed the policy; a second lookup could return another one.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const finish = (a: Answer) => {
      if (settled) return;
      settled = true;
      resolve(a);
    };
    const req = (isHttps ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname: host,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: isHttps ? agents.https : agents.http,
      lookup,
    });
    deadline.onExpiry = () => req.destroy(new Error(timeoutError));
    // It may have passed between the lookup's answer and now.
    if (deadline.expired) deadline.onExpiry();
    req.on('error', (err) =>
      finish({
        httpStatus: null,
        error: deadline.expired ? timeoutError : describeError(err),
        responseExcerpt: null,
        ...(!deadline.expired && isLocalFailure(err) && { local: true }),
      }),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? null;
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (error: string | null = null): Answer => ({
        httpStatus: status,
        retryAfterMs,
        error,
        responseExcerpt: size ? Buffer.concat(chunks).subarray(0, READ_LIMIT).toString('utf8').slice(0, EXCERPT_CHARS) : '',
      });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= READ_LIMIT) {
          // Enough for the excerpt; the connection is dropped rather than drained.
          finish(answer());
          res.destroy();
        }
      });
      res.on('end', () => finish(answer()));
      // The status line arrived in time; a body cut short is noted but does not undo the status.
      res.on('error', () => finish(answer(deadline.expired ? `${timeoutError} (reading the answer)` : 'answer cut short')));
      res.on('close', () => finish(answer(res.complete ? null : 'answer cut short')));
    });
    req.end(payload);
  });
}

/** `Retry-After` as delay-seconds or an HTTP date, in ms from now; null when absent or unreadable. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describeError(err: NodeJS.ErrnoException): string {
  return err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
}
