import { parseCookie, stringifySetCookie } from 'cookie';

/** The workspace's own cookie: an administrator's session opens nothing here, and the reverse. */
export const AGENT_SESSION_COOKIE = 'va_agent_session';

/** Same flags as the console's session: unreadable by scripts, not sent on cross-site subrequests. */
export function agentSessionCookie(token: string, { maxAgeSeconds, secure }: { maxAgeSeconds: number; secure: boolean }): string {
  return stringifySetCookie({
    name: AGENT_SESSION_COOKIE,
    value: token,
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: maxAgeSeconds,
    secure,
  });
}

export function clearedAgentSessionCookie({ secure }: { secure: boolean }): string {
  return stringifySetCookie({ name: AGENT_SESSION_COOKIE, value: '', path: '/', httpOnly: true, sameSite: 'lax', maxAge: 0, secure });
}

export function readAgentSessionToken(headers: Headers): string | undefined {
  const header = headers.get('cookie');
  return (header && parseCookie(header)[AGENT_SESSION_COOKIE]) || undefined;
}
