import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { getDeliveryStats } from '@/lib/delivery-stats/get-delivery-stats';
import { listVirtualAgentHealth } from '@/lib/delivery-stats/list-virtual-agent-health';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';

export const deliveriesRouter = tsr.router(adminContract.deliveries, {
  getDeliveryStats: async ({ query }) =>
    ok(4400, await getDeliveryStats(await getDb(), { accountId: adminAuth().accountId, window: query.window ?? '1h' })),
  listVirtualAgentHealth: async () => ok(4400, await listVirtualAgentHealth(await getDb(), { accountId: adminAuth().accountId })),
});
