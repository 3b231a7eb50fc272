import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { listAssetPage } from '@/lib/assets/list-asset-page';
import { getMe } from '@/lib/virtual-agents/get-me';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const meRouter = tsr.routerWithMiddleware(botContract.me)<{ bot: BotAuth }>({
  getMe: async (_, { request }) => {
    const { accountId, userId } = request.bot;
    return ok(4307, await getMe(await getDb(), { accountId, userId }));
  },
  listAssets: async ({ query }, { request }) => {
    const page = await listAssetPage(await getDb(), {
      accountId: request.bot.accountId,
      channel: query.channel,
      pageSize: query.page_size,
      cursor: query.cursor,
    });
    return ok(4308, { assets: page.assets, next_cursor: page.nextCursor });
  },
});
