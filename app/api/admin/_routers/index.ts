import { adminContract } from '@/contracts/admin';
import { adminGuard } from '@/lib/admin-auth/admin-guard';
import { createApiHandler } from '@/platform/http/create-api-handler';
import type { AdminAuth } from '@/platform/http/request-context';
import { accountsRouter } from './accounts';
import { assetsRouter } from './assets';
import { auditRouter } from './audit';
import { chatsRouter } from './chats';
import { deliveriesRouter } from './deliveries';
import { eventsRouter } from './events';
import { replaysRouter } from './replays';
import { routingRulesRouter } from './routing-rules';
import { sessionRouter } from './session';
import { teamsRouter } from './teams';
import { tracesRouter } from './traces';
import { usersRouter } from './users';
import { vaToolsRouter } from './va-tools';
import { virtualAgentsRouter } from './virtual-agents';

/**
 * The admin API: every route but /login needs the session cookie; every state-changing route
 * (login included) is refused when a browser sends it from another site.
 */
export const adminApiHandler = createApiHandler<typeof adminContract, { admin: AdminAuth }>({
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
    audit: auditRouter,
    traces: tracesRouter,
    replays: replaysRouter,
  },
  guard: adminGuard,
});
