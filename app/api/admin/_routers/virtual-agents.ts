import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { registerVirtualAgent } from '@/lib/virtual-agents/register-virtual-agent';
import { rotateApiKey } from '@/lib/virtual-agents/rotate-api-key';
import { rotateSigningSecret } from '@/lib/virtual-agents/rotate-signing-secret';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { getVirtualAgentOrFail, loadVirtualAgents } from '@/lib/virtual-agents/virtual-agent-view';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const virtualAgentsRouter = tsr.routerWithMiddleware(adminContract.virtualAgents)<{ admin: AdminAuth }>({
  listVirtualAgents: async (_, { request }) => ok(4400, await loadVirtualAgents(await getDb(), { accountId: request.admin.accountId })),
  getVirtualAgent: async ({ params }, { request }) =>
    ok(4400, await getVirtualAgentOrFail(await getDb(), { accountId: request.admin.accountId, id: params.id })),
  createVirtualAgent: async ({ body }, { request }) =>
    ok(4401, await registerVirtualAgent(await getDb(), { accountId: request.admin.accountId, body })),
  updateVirtualAgent: async ({ params, body }, { request }) =>
    ok(4400, await updateVirtualAgent(await getDb(), { accountId: request.admin.accountId, id: params.id, patch: body })),
  rotateApiKey: async ({ params, body }, { request }) =>
    ok(4400, await rotateApiKey(await getDb(), { accountId: request.admin.accountId, id: params.id, mode: body?.mode })),
  rotateSigningSecret: async ({ params, body }, { request }) =>
    ok(4400, await rotateSigningSecret(await getDb(), { accountId: request.admin.accountId, id: params.id, mode: body?.mode })),
});
