import { agentContract } from '@/contracts/agent';
import { agentGuard } from '@/lib/agent-auth/agent-guard';
import { createApiHandler } from '@/platform/http/create-api-handler';
import type { AgentAuth } from '@/platform/http/request-context';
import { chatsRouter } from './chats';
import { directoryRouter } from './directory';
import { liveRouter } from './live';
import { sessionRouter } from './session';

/** The agent workspace's API: its own contract, cookie and guard (lib/agent-auth), a router per resource. */
export const agentApiHandler = createApiHandler<typeof agentContract, { agent: AgentAuth }>({
  contract: agentContract,
  router: { session: sessionRouter, directory: directoryRouter, chats: chatsRouter, live: liveRouter },
  guard: agentGuard,
});
