import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { listBotRequests } from '@/lib/request-log/list-bot-requests';
import { findTrace } from '@/lib/traces/find-trace';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const tracesRouter = tsr.routerWithMiddleware(adminContract.traces)<{ admin: AdminAuth }>({
  findTrace: async ({ query }, { request }) =>
    ok(4400, await findTrace(await getDb(), { accountId: request.admin.accountId, id: query.id })),
  listBotRequests: async ({ query }, { request }) =>
    ok(4400, await listBotRequests(await getDb(), { accountId: request.admin.accountId, query })),
});
