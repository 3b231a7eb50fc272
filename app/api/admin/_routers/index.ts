import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { authenticateSession } from '@/lib/admin-auth/authenticate-session';
import { checkSameOrigin } from '@/lib/admin-auth/check-same-origin';
import { clearedSessionCookie, isHttps, readSessionToken } from '@/lib/admin-auth/session-cookie';
import { createApiHandler } from '@/lib/http/create-api-handler';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import { accountsRouter } from './accounts';
import { assetsRouter } from './assets';
import { chatsRouter } from './chats';
import { deliveriesRouter } from './deliveries';
import { eventsRouter } from './events';
import { routingRulesRouter } from './routing-rules';
import { sessionRouter } from './session';
import { teamsRouter } from './teams';
import { usersRouter } from './users';
import { vaToolsRouter } from './va-tools';
import { virtualAgentsRouter } from './virtual-agents';

const PUBLIC_PATHS = new Set<string>([adminContract.session.login.path]);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The admin API: every route but /login needs the session cookie; every state-changing route
 * (login included) is refused when a browser sends it from another site.
 */
export const adminApiHandler = createApiHandler({
  contract: adminContract,
  router: {
    session: sessionRouter,
    accounts: accountsRouter,
    teams: teamsRouter,
    users: usersRouter,
    virtualAgents: virtualAgentsRouter,
    assets: assetsRouter,
    routingRules: routingRulesRouter,
    chats: chatsRouter,
    events: eventsRouter,
    deliveries: deliveriesRouter,
    vaTools: vaToolsRouter,
  },
  guard: async (req, entry, ctx) => {
    if (!SAFE_METHODS.has(req.method)) checkSameOrigin(req);
    if (PUBLIC_PATHS.has(entry.path)) {
      const ip = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'local';
      ctx.rateLimit = await consumeRateLimit(`admin-login:${ip}`, 'login');
      return;
    }
    const token = readSessionToken(req.headers);
    try {
      ctx.admin = await authenticateSession(await getDb(), { token });
    } catch (err) {
      // A stale cookie is dropped so the browser stops sending it.
      if (token) ctx.setCookies = [clearedSessionCookie({ secure: isHttps(req) })];
      throw err;
    }
  },
});
