import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { retryVirtualAgentNow } from '@/lib/delivery/retry-now';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { sendTestEvent } from '@/lib/virtual-agents/send-test-event';

export const vaToolsRouter = tsr.router(adminContract.vaTools, {
  sendTestEvent: async ({ params }) => ok(4400, await sendTestEvent(await getDb(), { accountId: adminAuth().accountId, id: params.id })),
  retryNow: async ({ params }) => ok(4400, await retryVirtualAgentNow(await getDb(), { accountId: adminAuth().accountId, id: params.id })),
});
