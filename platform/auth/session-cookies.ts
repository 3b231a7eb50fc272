import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * A signed-in person's session cookie under `name` (the console's and the workspace's each have
 * their own): unreadable by scripts, not sent on cross-site subrequests, Secure over https.
 */
export function sessionCookies(name: string) {
  const set = (value: string, { maxAgeSeconds, secure }: { maxAgeSeconds: number; secure: boolean }) =>
    stringifySetCookie({ name, value, path: '/', httpOnly: true, sameSite: 'lax', maxAge: maxAgeSeconds, secure });
  return {
    /** The cookie carrying a new session. */
    set,
    /** The cookie that ends it in the browser. */
    cleared: ({ secure }: { secure: boolean }) => set('', { maxAgeSeconds: 0, secure }),
    /** The session token from a `Cookie` header, if any. */
    read: (headers: Headers): string | undefined => {
      const header = headers.get('cookie');
      return (header && parseCookie(header)[name]) || undefined;
    },
  };
}
