import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { createAsset } from '@/lib/assets/create-asset';
import { listAssets, toAssetView } from '@/lib/assets/list-assets';
import { updateAsset } from '@/lib/assets/update-asset';
import { publicBaseOf } from '@/lib/widget/public-base';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const assetsRouter = tsr.routerWithMiddleware(adminContract.assets)<{ admin: AdminAuth }>({
  listAssets: async ({ query }, { request }) =>
    ok(4400, await listAssets(await getDb(), { accountId: request.admin.accountId, query, base: publicBaseOf(request) })),
  createAsset: async ({ body }, { request }) => {
    const asset = await createAsset(await getDb(), {
      accountId: request.admin.accountId,
      channel: body.channel,
      name: body.name,
      address: body.address,
    });
    return ok(4401, toAssetView(asset, publicBaseOf(request)));
  },
  updateAsset: async ({ params, body }, { request }) =>
    ok(
      4400,
      toAssetView(
        await updateAsset(await getDb(), { accountId: request.admin.accountId, id: params.id, patch: body }),
        publicBaseOf(request),
      ),
    ),
});
