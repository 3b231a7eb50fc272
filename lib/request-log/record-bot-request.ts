import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { botContract } from '@/contracts/bot';
import { CODES, type Code } from '@/contracts/codes';
import { botRequestSampleRate, env } from '@/env';
import type { AnsweredRequest } from '@/platform/http/create-api-handler';
import { traceIdTime } from '@/platform/util/ids';
import { storableText } from '@/platform/util/storable-text';
import { requestLog } from './request-log';
import type { BotRequestRow } from './request-log-buffer';
import { successRecorded } from './sampling';

const MAX_PATH = 500;
const MAX_KEY = 200;
const MAX_FIELDS = 5;

/** Each bot route's operationId (the route's key in the contract, as in the OpenAPI document). */
const OPERATIONS = new Map<AppRoute, string>();
(function walk(router: AppRouter) {
  for (const [key, value] of Object.entries(router)) {
    if (isAppRoute(value)) OPERATIONS.set(value, key);
    else walk(value as AppRouter);
  }
})(botContract);

/** Where `:chat_id` sits in each route's path, by segment. */
const CHAT_SEGMENT = new Map<string, number>();
function chatSegment(path: string): number {
  let at = CHAT_SEGMENT.get(path);
  if (at === undefined) {
    at = path.split('/').indexOf(':chat_id');
    CHAT_SEGMENT.set(path, at);
  }
  return at;
}

const ENVELOPE_CODE = /^\{"status_code":(\d+),/;
const CREATED_CHAT_ID = /"chat_id":"([^"\\]{1,100})"/;

/**
 * The bot API's `onAnswered`: queues one request log row for a call made as a known VA (a valid
 * token, or a successful /authorize). Failures (HTTP 400 and above) always, successes as
 * BOT_REQUEST_LOG and BOT_REQUEST_LOG_SAMPLE_RATE say (lib/request-log/sampling.ts). Only what the pipeline already knows is
 * kept: no body, no header but the Idempotency-Key, no query value, and the catalogue's
 * description rather than the answer's (which may quote what was sent).
 */
export function recordBotRequest({ req, entry, ctx, answer, failure, ms }: AnsweredRequest): void {
  const bot = ctx.bot;
  if (!bot || !entry) return;
  const config = env();
  if (config.BOT_REQUEST_LOG === 'off') return;
  const failed = answer.status >= 400;
  if (!failed && config.BOT_REQUEST_LOG === 'failures') return;
  const operation = OPERATIONS.get(entry.route) ?? entry.path;
  const chatId = storable(chatIdOf(entry.path, req.path, operation, answer));
  // Successes of a sample of the chats (by chat ID, so a chat's calls are all there or none are).
  if (!failed && !successRecorded(chatId ?? ctx.trxid, botRequestSampleRate(config))) return;
  const statusCode = failure ? failure.code : successCode(answer.body);
  const row: BotRequestRow = {
    accountId: bot.accountId,
    virtualAgentId: bot.userId,
    // The trxid's own time (the call's start, to the millisecond), so ranges of time are ranges of trxid.
    at: new Date(traceIdTime(ctx.trxid)),
    operation,
    method: req.method,
    // What a client sent (a path segment, a refused field's name) may hold a NUL or a lone
    // surrogate, which would fail the whole batch; the rest is ours.
    path: storableText(pathWithQueryNames(req.path, req.search)),
    chatId,
    httpStatus: answer.status,
    statusCode,
    description: failure?.errors?.length ? storableText(describe(statusCode, failure)) : describe(statusCode, failure),
    trxid: ctx.trxid,
    latencyMs: Math.max(0, Math.round(ms)),
    idempotencyKey: storable(req.headers.get('idempotency-key')?.slice(0, MAX_KEY) || null),
  };
  requestLog().push(row);
}

const storable = (text: string | null) => (text === null ? null : storableText(text));

function successCode(body: ApiAnswerBody): number | null {
  if (typeof body !== 'string') return null;
  const m = ENVELOPE_CODE.exec(body.slice(0, 40));
  return m ? Number(m[1]) : null;
}

type ApiAnswerBody = AnsweredRequest['answer']['body'];

function describe(code: number | null, failure: AnsweredRequest['failure']): string {
  const base = code !== null && code in CODES ? CODES[code as Code].description : '';
  const fields = failure?.errors?.slice(0, MAX_FIELDS).map((e) => e.field.slice(0, 100));
  if (!fields?.length) return base;
  const more = (failure?.errors?.length ?? 0) - fields.length;
  return `${base}: ${fields.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The path as sent (ids kept) and the names of the query parameters, never their values. */
export function pathWithQueryNames(path: string, search: string): string {
  if (!search) return path.slice(0, MAX_PATH);
  const names = search
    .split('&')
    .map((pair) => pair.split('=')[0])
    .filter(Boolean);
  return `${path}?${[...new Set(names)].join('&')}`.slice(0, MAX_PATH);
}

/** The path's `n`th '/'-separated segment ('' when it has fewer), without splitting all of it. */
export function segment(path: string, n: number): string {
  let start = 0;
  for (let i = 0; i < n; i++) {
    start = path.indexOf('/', start) + 1;
    if (start === 0) return '';
  }
  const end = path.indexOf('/', start);
  return end === -1 ? path.slice(start) : path.slice(start, end);
}

function chatIdOf(pattern: string, path: string, operation: string, answer: AnsweredRequest['answer']): string | null {
  const at = chatSegment(pattern);
  if (at >= 0) {
    const raw = segment(path, at);
    if (!raw) return null;
    if (!raw.includes('%')) return raw.slice(0, 100);
    try {
      return decodeURIComponent(raw).slice(0, 100);
    } catch {
      return raw.slice(0, 100);
    }
  }
  // A created chat's id is in the answer; it is the first chat_id of the envelope.
  if (operation === 'createChat' && answer.status === 201 && typeof answer.body === 'string') {
    return CREATED_CHAT_ID.exec(answer.body)?.[1] ?? null;
  }
  return null;
}
