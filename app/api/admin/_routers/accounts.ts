import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { createAccount } from '@/lib/accounts/create-account';
import { listAccounts } from '@/lib/accounts/list-accounts';
import { setTransferEnabled } from '@/lib/accounts/transfer-setting';
import { requirePlatformAdmin } from '@/lib/admin-auth/require-platform-admin';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const accountsRouter = tsr.routerWithMiddleware(adminContract.accounts)<{ admin: AdminAuth }>({
  listAccounts: async (_, { request }) => {
    const admin = request.admin;
    return ok(4400, await listAccounts(await getDb(), { accountId: admin.isPlatformAdmin ? undefined : admin.accountId }));
  },
  createAccount: async ({ body }, { request }) => {
    requirePlatformAdmin(request.admin);
    const db = await getDb();
    const { account } = await createAccount(db, { name: body.name, adminEmail: body.admin_email, adminPassword: body.admin_password });
    const [view] = await listAccounts(db, { accountId: account.id });
    return ok(4401, view);
  },
  updateAccount: async ({ params, body }, { request }) => {
    requirePlatformAdmin(request.admin);
    const db = await getDb();
    await setTransferEnabled(db, { accountId: params.id, enabled: body.transfer_enabled });
    const [view] = await listAccounts(db, { accountId: params.id });
    return ok(4400, view);
  },
});
