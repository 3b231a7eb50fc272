import { type ApiFetcherArgs, initClient, tsRestFetchApi } from '@ts-rest/core';
import { BOT_API_PREFIX, botContract } from '@/contracts/bot';
import { type EventStreamOptions, streamEvents } from './pulled-events';

export type BotClientOptions = {
  /** The service's origin, e.g. `http://localhost:3000` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  /** The VA's API key (`vak_…`). */
  apiKey: string;
  /** Fetch a new token this many seconds before the current one expires (default 60). */
  refreshMarginSeconds?: number;
};

/** An answer outside 2xx, as an error: the envelope's code and text, and the `trxid` to quote to support. */
export class BotApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly statusCode: number | null,
    readonly description: string,
    readonly trxid: string | null,
    readonly response: unknown,
  ) {
    super(`${statusCode ?? httpStatus} ${description}${trxid ? ` (trxid ${trxid})` : ''}`);
    this.name = 'BotApiError';
  }
}

type Answer = { status: number; body: unknown; headers: Headers };

export function toError(res: Answer): BotApiError {
  const body = (res.body ?? {}) as { status_code?: number; description?: string; response?: unknown };
  return new BotApiError(
    res.status,
    typeof body.status_code === 'number' ? body.status_code : null,
    body.description ?? `HTTP ${res.status}`,
    res.headers.get('trxid'),
    body.response,
  );
}

/** A token the service no longer takes: unknown (2003) or expired (2004). Worth one fresh token and a retry. */
function tokenRefused(res: Answer): boolean {
  const code = (res.body as { status_code?: unknown } | null)?.status_code;
  return (res.status === 401 && code === 2004) || (res.status === 400 && code === 2003);
}

/**
 * A typed client of the bot API, straight from the contract the server is built on (ts-rest's
 * `initClient` over `botContract`): every call's input and answer are typed, nothing is generated.
 *
 * It authorizes with the API key on first use, sends the `access_token` header on every call,
 * fetches a new token shortly before the current one expires, and on a refused token (2003/2004,
 * e.g. after an administrator rotated the key with overlap) authorizes once more and repeats the
 * call. Calls answer `{status, body, headers}` like any ts-rest client; `responseOf()` turns an
 * answer into its `response` or throws a `BotApiError`.
 */
export function createBotClient({ baseUrl, apiKey, refreshMarginSeconds = 60 }: BotClientOptions) {
  const origin = baseUrl.replace(/\/+$/, '').replace(new RegExp(`${BOT_API_PREFIX}$`), '');
  let token: { value: string; refreshAt: number } | null = null;
  let inFlight: Promise<string> | null = null;

  const plain = initClient(botContract, { baseUrl: origin, throwOnUnknownStatus: false });

  async function authorize(): Promise<string> {
    const res = await plain.auth.authorize({ body: { api_key: apiKey } });
    if (res.status !== 200) throw toError(res);
    const { access_token, expires_in } = res.body.response;
    token = { value: access_token, refreshAt: Date.now() + Math.max(0, expires_in - refreshMarginSeconds) * 1000 };
    return access_token;
  }

  /** The current token, refreshed when due; concurrent callers share one /authorize call. */
  function accessToken(force = false): Promise<string> {
    if (!force && token && Date.now() < token.refreshAt) return Promise.resolve(token.value);
    inFlight ??= authorize().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function send(args: ApiFetcherArgs): Promise<Answer> {
    if (args.route === botContract.auth.authorize) return tsRestFetchApi(args);
    const attempt = async (force: boolean) =>
      tsRestFetchApi({ ...args, headers: { ...args.headers, access_token: await accessToken(force) } });
    const first = await attempt(false);
    return tokenRefused(first) ? attempt(true) : first;
  }

  // `access_token` in baseHeaders makes the header optional in every call's type; `send` sets it.
  const api = initClient(botContract, {
    baseUrl: origin,
    baseHeaders: { access_token: () => token?.value ?? '' },
    api: send,
    throwOnUnknownStatus: false,
  });

  return Object.assign(api, {
    /** The service's origin, e.g. `http://localhost:3000`. */
    origin,
    /** The current access token (fetched or refreshed when due), for calls made without this client. */
    accessToken: () => accessToken(),
    /**
     * `GET /events/stream` as an async iterator that reconnects with `Last-Event-ID` (see
     * pulled-events.ts). `events.listEvents({ query: { after, limit, wait_seconds } })` is the long-poll.
     */
    streamEvents: (options?: EventStreamOptions) => streamEvents({ origin, accessToken }, options),
  });
}

export type BotClient = ReturnType<typeof createBotClient>;

type SuccessStatus = 200 | 201 | 202;
type Response<A> = A extends { status: SuccessStatus; body: { response: infer R } } ? R : never;

/** The `response` of a 2xx answer; any other answer throws a `BotApiError` (code, description, trxid). */
export function responseOf<A extends { status: number; body: unknown; headers: Headers }>(answer: A): Response<A> {
  if (answer.status >= 200 && answer.status < 300) return (answer.body as { response: Response<A> }).response;
  throw toError(answer);
}
