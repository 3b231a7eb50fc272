import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { redeliverEvent } from '@/lib/delivery/redeliver-event';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const eventsRouter = tsr.routerWithMiddleware(adminContract.events)<{ admin: AdminAuth }>({
  redeliverEvent: async ({ params, query }, { request }) => {
    await redeliverEvent(await getDb(), { accountId: request.admin.accountId, eventId: params.id, force: query.force === 'true' });
    return ok(4400, null);
  },
});
