import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { getDeliveryStats } from '@/lib/delivery-stats/get-delivery-stats';
import { listVirtualAgentHealth } from '@/lib/delivery-stats/list-virtual-agent-health';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const deliveriesRouter = tsr.routerWithMiddleware(adminContract.deliveries)<{ admin: AdminAuth }>({
  getDeliveryStats: async ({ query }, { request }) =>
    ok(4400, await getDeliveryStats(await getDb(), { accountId: request.admin.accountId, window: query.window ?? '1h' })),
  listVirtualAgentHealth: async (_, { request }) =>
    ok(4400, await listVirtualAgentHealth(await getDb(), { accountId: request.admin.accountId })),
});
