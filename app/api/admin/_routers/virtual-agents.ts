import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { registerVirtualAgent } from '@/lib/virtual-agents/register-virtual-agent';
import { rotateApiKey } from '@/lib/virtual-agents/rotate-api-key';
import { rotateSigningSecret } from '@/lib/virtual-agents/rotate-signing-secret';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { getVirtualAgentOrFail, loadVirtualAgents } from '@/lib/virtual-agents/virtual-agent-view';

export const virtualAgentsRouter = tsr.router(adminContract.virtualAgents, {
  listVirtualAgents: async () => ok(4400, await loadVirtualAgents(await getDb(), { accountId: adminAuth().accountId })),
  getVirtualAgent: async ({ params }) =>
    ok(4400, await getVirtualAgentOrFail(await getDb(), { accountId: adminAuth().accountId, id: params.id })),
  createVirtualAgent: async ({ body }) => ok(4401, await registerVirtualAgent(await getDb(), { accountId: adminAuth().accountId, body })),
  updateVirtualAgent: async ({ params, body }) =>
    ok(4400, await updateVirtualAgent(await getDb(), { accountId: adminAuth().accountId, id: params.id, patch: body })),
  rotateApiKey: async ({ params, body }) =>
    ok(4400, await rotateApiKey(await getDb(), { accountId: adminAuth().accountId, id: params.id, mode: body?.mode })),
  rotateSigningSecret: async ({ params, body }) =>
    ok(4400, await rotateSigningSecret(await getDb(), { accountId: adminAuth().accountId, id: params.id, mode: body?.mode })),
});
