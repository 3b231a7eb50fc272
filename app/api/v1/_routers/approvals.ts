import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { getApproval, requestApproval } from '@/lib/approvals/request-approval';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const approvalsRouter = tsr.routerWithMiddleware(botContract.approvals)<{ bot: BotAuth }>({
  requestApproval: async ({ params, body }, { request }) => {
    const { accountId, userId } = request.bot;
    return ok(4330, await requestApproval(await getDb(), { accountId, vaUserId: userId, chatId: params.chat_id, body }));
  },
  getApproval: async ({ params }, { request }) =>
    ok(
      4331,
      await getApproval(await getDb(), { accountId: request.bot.accountId, chatId: params.chat_id, approvalId: params.approval_id }),
    ),
});
