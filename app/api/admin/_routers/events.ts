import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { redeliverEvent } from '@/lib/delivery/redeliver-event';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';

export const eventsRouter = tsr.router(adminContract.events, {
  redeliverEvent: async ({ params, query }) => {
    await redeliverEvent(await getDb(), { accountId: adminAuth().accountId, eventId: params.id, force: query.force === 'true' });
    return ok(4400, null);
  },
});
