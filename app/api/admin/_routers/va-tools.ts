import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { listRecoveries } from '@/lib/delivery/list-recoveries';
import { retryVirtualAgentNow } from '@/lib/delivery/retry-now';
import { startRecovery } from '@/lib/delivery/start-recovery';
import { listVaReplies } from '@/lib/virtual-agents/list-va-replies';
import { sendTestEvent } from '@/lib/virtual-agents/send-test-event';
import { startTestChat } from '@/lib/virtual-agents/start-test-chat';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const vaToolsRouter = tsr.routerWithMiddleware(adminContract.vaTools)<{ admin: AdminAuth }>({
  sendTestEvent: async ({ params }, { request }) =>
    ok(4400, await sendTestEvent(await getDb(), { accountId: request.admin.accountId, id: params.id })),
  startTestChat: async ({ params, body }, { request }) => {
    const { accountId, email } = request.admin;
    return ok(4401, await startTestChat(await getDb(), { accountId, id: params.id, adminEmail: email, text: body.text }));
  },
  startRecovery: async ({ params, body }, { request }) =>
    ok(
      4401,
      await startRecovery(await getDb(), {
        accountId: request.admin.accountId,
        virtualAgentId: params.id,
        since: new Date(body.since),
        until: body.until ? new Date(body.until) : undefined,
      }),
    ),
  listRecoveries: async ({ params }, { request }) =>
    ok(4400, await listRecoveries(await getDb(), { accountId: request.admin.accountId, virtualAgentId: params.id })),
  getVaReplies: async ({ params }, { request }) =>
    ok(4400, await listVaReplies(await getDb(), { accountId: request.admin.accountId, virtualAgentId: params.id })),
  retryNow: async ({ params }, { request }) =>
    ok(4400, await retryVirtualAgentNow(await getDb(), { accountId: request.admin.accountId, id: params.id })),
});
