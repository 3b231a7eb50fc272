import { sessionCookies } from '@/platform/auth/session-cookies';

export const SESSION_COOKIE = 'va_session';

type RequestLike = { url: string; headers: Headers };

function firstValue(header: string | null): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin (scheme and host) the client addressed: the proxy's `X-Forwarded-Host` and
 * `X-Forwarded-Proto` when present, else the `Host` header and the URL's scheme.
 */
export function ownOrigin(req: RequestLike): string {
  const url = new URL(req.url);
  const host = firstValue(req.headers.get('x-forwarded-host')) ?? req.headers.get('host') ?? url.host;
  const proto = firstValue(req.headers.get('x-forwarded-proto')) ?? url.protocol.replace(/:$/, '');
  return `${proto}://${host}`;
}

export function isHttps(req: RequestLike): boolean {
  return ownOrigin(req).startsWith('https://');
}

const cookies = sessionCookies(SESSION_COOKIE);
/** The cookie carrying a new session: unreadable by scripts, not sent on cross-site subrequests. */
export const sessionCookie = cookies.set;
export const clearedSessionCookie = cookies.cleared;
/** The session token from a `Cookie` header, if any. */
export const readSessionToken = cookies.read;
