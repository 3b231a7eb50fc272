import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { listAuditEntries } from '@/lib/audit/list-audit-entries';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const auditRouter = tsr.routerWithMiddleware(adminContract.audit)<{ admin: AdminAuth }>({
  listAuditEntries: async ({ query }, { request }) =>
    ok(4400, await listAuditEntries(await getDb(), { accountId: request.admin.accountId, query })),
});
