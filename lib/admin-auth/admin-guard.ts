import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { sessionGuard } from '@/platform/auth/session-guard';
import { authenticateSession } from './authenticate-session';
import { clearedSessionCookie, readSessionToken } from './session-cookie';

/**
 * The admin API's guard: every route but /login needs the session cookie; every state-changing
 * route (login included) is refused when a browser sends it from another site. Sign-in attempts
 * count per client address here (and per account and address in logIn); signed-in calls count per
 * session (ADMIN_RATE_LIMIT_PER_MINUTE), the test-event tool included. Each state-changing call is
 * recorded in the audit log.
 */
export const adminGuard = sessionGuard({
  publicPaths: [adminContract.session.login.path],
  loginKey: 'admin-login',
  readToken: readSessionToken,
  signedOutCode: 3001,
  clearedCookie: clearedSessionCookie,
  authenticate: async (token, ctx) => {
    ctx.admin = await authenticateSession(await getDb(), { token });
    return ctx.admin;
  },
  budget: { name: 'admin-session', label: 'admin requests' },
  auditActor: (admin, entry) => ({ accountId: admin.accountId, adminId: admin.adminId, adminEmail: admin.email, routePath: entry.path }),
});
