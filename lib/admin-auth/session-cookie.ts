import { env } from '@/env';
import { sessionCookies } from '@/platform/auth/session-cookies';

export const SESSION_COOKIE = 'va_session';

type RequestLike = { url: string; headers: Headers };

function firstValue(header: string | null): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin (scheme and host) the client addressed: the `Host` header and the URL's scheme. A
 * proxy's `X-Forwarded-Host` and `X-Forwarded-Proto` count only with TRUSTED_PROXIES set (the node
 * entry also drops them from a peer that is not on the list): anyone can send them, and a cache in
 * front that does not key on them would serve what they chose to everyone.
 */
export function ownOrigin(req: RequestLike): string {
  const url = new URL(req.url);
  const forwarded = env().TRUSTED_PROXIES.kind !== 'none';
  const host = (forwarded && firstValue(req.headers.get('x-forwarded-host'))) || req.headers.get('host') || url.host;
  const proto = (forwarded && firstValue(req.headers.get('x-forwarded-proto'))) || url.protocol.replace(/:$/, '');
  return `${proto}://${host}`;
}

/** Whether the client came over https: as PUBLIC_URL says when it is set, else as ownOrigin tells. */
export function isHttps(req: RequestLike): boolean {
  const configured = env().PUBLIC_URL;
  if (configured) return configured.startsWith('https://');
  return ownOrigin(req).startsWith('https://');
}

const cookies = sessionCookies(SESSION_COOKIE);
/** The cookie carrying a new session: unreadable by scripts, not sent on cross-site subrequests. */
export const sessionCookie = cookies.set;
export const clearedSessionCookie = cookies.cleared;
/** The session token from a `Cookie` header, if any. */
export const readSessionToken = cookies.read;
