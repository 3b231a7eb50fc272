import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { listAssetPage } from '@/lib/assets/list-asset-page';
import { botAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { getMe } from '@/lib/virtual-agents/get-me';

export const meRouter = tsr.router(botContract.me, {
  getMe: async () => {
    const { accountId, userId } = botAuth();
    return ok(4307, await getMe(await getDb(), { accountId, userId }));
  },
  listAssets: async ({ query }) => {
    const page = await listAssetPage(await getDb(), {
      accountId: botAuth().accountId,
      channel: query.channel,
      pageSize: query.page_size,
      cursor: query.cursor,
    });
    return ok(4308, { assets: page.assets, next_cursor: page.nextCursor });
  },
});
