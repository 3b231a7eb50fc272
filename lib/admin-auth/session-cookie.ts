import { parseCookie, stringifySetCookie } from 'cookie';

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

/** The cookie carrying a new session: unreadable by scripts, not sent on cross-site subrequests. */
export function sessionCookie(token: string, { maxAgeSeconds, secure }: { maxAgeSeconds: number; secure: boolean }): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: maxAgeSeconds,
    secure,
  });
}

export function clearedSessionCookie({ secure }: { secure: boolean }): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', path: '/', httpOnly: true, sameSite: 'lax', maxAge: 0, secure });
}

/** The session token from a `Cookie` header, if any. */
export function readSessionToken(headers: Headers): string | undefined {
  const header = headers.get('cookie');
  return (header && parseCookie(header)[SESSION_COOKIE]) || undefined;
}
