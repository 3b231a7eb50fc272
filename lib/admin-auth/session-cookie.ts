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
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie({ secure }: { secure: boolean }): string {
  return [`${SESSION_COOKIE}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', ...(secure ? ['Secure'] : [])].join('; ');
}

/** The session token from a `Cookie` header, if any. */
export function readSessionToken(headers: Headers): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
