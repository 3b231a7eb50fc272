import { tsr } from '@ts-rest/serverless/next';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { listDirectory } from '@/lib/agent/list-directory';
import type { AgentAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const directoryRouter = tsr.routerWithMiddleware(agentContract.directory)<{ agent: AgentAuth }>({
  directory: async (_, { request }) => ok(4400, await listDirectory(await getDb(), { accountId: request.agent.accountId })),
});
