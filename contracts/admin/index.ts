import { initContract } from '@ts-rest/core';
import { accountsContract } from './accounts';
import { assetsContract } from './assets';
import { auditContract } from './audit';
import { chatsContract } from './chats';
import { deliveriesContract } from './deliveries';
import { eventsContract } from './events';
import { replaysContract } from './replays';
import { routingRulesContract } from './routing-rules';
import { sessionContract } from './session';
import { teamsContract } from './teams';
import { tracesContract } from './traces';
import { usersContract } from './users';
import { vaToolsContract } from './va-tools';
import { virtualAgentsContract } from './virtual-agents';

const c = initContract();

export const ADMIN_API_PREFIX = '/api/admin';

/** The admin API: session cookie auth (POST /login), the same envelope as the bot API. */
export const adminContract = c.router(
  {
    session: sessionContract,
    accounts: accountsContract,
    teams: teamsContract,
    users: usersContract,
    virtualAgents: virtualAgentsContract,
    assets: assetsContract,
    routingRules: routingRulesContract,
    chats: chatsContract,
    events: eventsContract,
    deliveries: deliveriesContract,
    vaTools: vaToolsContract,
    audit: auditContract,
    traces: tracesContract,
    replays: replaysContract,
  },
  { pathPrefix: ADMIN_API_PREFIX, strictStatusCodes: true },
);
