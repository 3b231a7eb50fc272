import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { getCurrentAdmin } from '@/lib/admin-auth/get-current-admin';
import { logIn } from '@/lib/admin-auth/log-in';
import { logOut } from '@/lib/admin-auth/log-out';
import { clearedSessionCookie, isHttps, readSessionToken, sessionCookie } from '@/lib/admin-auth/session-cookie';
import { currentContext } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

function setCookie(cookie: string) {
  const ctx = currentContext();
  ctx.setCookies = [...(ctx.setCookies ?? []), cookie];
}

export const sessionRouter = tsr.router(adminContract.session, {
  login: async ({ body }, { request }) => {
    const db = await getDb();
    const clientAddress = currentContext().clientAddress ?? 'unknown';
    const session = await logIn(db, { email: body.email, password: body.password, clientAddress });
    const maxAgeSeconds = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
    setCookie(sessionCookie(session.token, { maxAgeSeconds, secure: isHttps(request) }));
    return ok(4400, await getCurrentAdmin(db, { token: session.token }));
  },
  logout: async (_, { request }) => {
    const token = readSessionToken(request.headers);
    if (token) await logOut(await getDb(), { token });
    setCookie(clearedSessionCookie({ secure: isHttps(request) }));
    return ok(4400, null);
  },
  me: async (_, { request }) => ok(4400, await getCurrentAdmin(await getDb(), { token: readSessionToken(request.headers) ?? '' })),
});
