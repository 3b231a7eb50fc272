import type { EventStream } from '@/platform/realtime/sse-stream';

/**
 * The small request and answer types the API pipeline works on, so that one pipeline serves both
 * entries: Next's route handler (a `NextRequest`) and the node:http adapter of `npm start` (an
 * `IncomingMessage`). Each entry reads the body bytes itself, within the size and time limits,
 * and turns the answer into its own response object.
 */
export type ApiRequest = {
  method: string;
  /** Absolute URL as the client addressed it (host from the Host header). */
  url: string;
  /** Path as sent, still percent-encoded. */
  path: string;
  /** Query string without the `?`, `''` when there is none. */
  search: string;
  headers: Headers;
  /** The body, read in full within MAX_BODY_BYTES and BODY_TIMEOUT_MS; `null` when there was none. */
  body: Uint8Array | null;
  /**
   * A body left unread, as it arrives (an event stream: `takesStream`); `body` is then `null`. The
   * route that takes it reads it within its own limits; any other route refuses it (2009).
   */
  bodyStream?: AsyncIterable<Uint8Array>;
  /** Address of the peer of the TCP connection (a proxy's when behind one); `null` when unknown. */
  clientAddress: string | null;
};

export type ApiAnswer = {
  status: number;
  headers: PlainHeaders;
  /**
   * A JSON text or raw bytes; a stream, which each entry pipes as it comes (JSON Lines as a web
   * stream; Server-Sent Events as an EventStream, taken natively by the node:http entry); `null` for no body.
   */
  body: string | Uint8Array | ReadableStream<Uint8Array> | EventStream | null;
};

type Raw = Record<string, string | string[] | undefined>;

/**
 * A `Headers` over a plain object with lower-case names, as node:http gives them: wrapping a
 * request's headers copies nothing, and an answer's headers go to `writeHead` without a
 * conversion. Repeated names other than Set-Cookie are joined with `, ` when read, as `Headers`
 * does.
 */
export class PlainHeaders implements Headers {
  readonly raw: Raw;

  constructor(raw: Raw = {}) {
    this.raw = raw;
  }

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.raw[name.toLowerCase()] = String(value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.raw[key];
    if (current === undefined) this.raw[key] = key === 'set-cookie' ? [value] : value;
    else if (Array.isArray(current)) current.push(value);
    else if (key === 'set-cookie') this.raw[key] = [current, value];
    else this.raw[key] = `${current}, ${value}`;
  }

  delete(name: string): void {
    delete this.raw[name.toLowerCase()];
  }

  getSetCookie(): string[] {
    const v = this.raw['set-cookie'];
    return v === undefined ? [] : typeof v === 'string' ? [v] : [...v];
  }

  forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  *entries(): HeadersIterator<[string, string]> {
    for (const key of Object.keys(this.raw).sort()) {
      const v = this.raw[key];
      if (v === undefined) continue;
      if (key === 'set-cookie' && Array.isArray(v)) for (const c of v) yield [key, c];
      else yield [key, typeof v === 'string' ? v : v.join(', ')];
    }
  }

  *keys(): HeadersIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): HeadersIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}
