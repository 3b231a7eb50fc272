import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { createAsset } from '@/lib/assets/create-asset';
import { listAssets, toAssetView } from '@/lib/assets/list-assets';
import { updateAsset } from '@/lib/assets/update-asset';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';

export const assetsRouter = tsr.router(adminContract.assets, {
  listAssets: async ({ query }) => ok(4400, await listAssets(await getDb(), { accountId: adminAuth().accountId, query })),
  createAsset: async ({ body }) => {
    const asset = await createAsset(await getDb(), {
      accountId: adminAuth().accountId,
      channel: body.channel,
      name: body.name,
      address: body.address,
    });
    return ok(4401, toAssetView(asset));
  },
  updateAsset: async ({ params, body }) =>
    ok(4400, toAssetView(await updateAsset(await getDb(), { accountId: adminAuth().accountId, id: params.id, patch: body }))),
});
