import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { listAuditEntries } from '@/lib/audit/list-audit-entries';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';

export const auditRouter = tsr.router(adminContract.audit, {
  listAuditEntries: async ({ query }) => ok(4400, await listAuditEntries(await getDb(), { accountId: adminAuth().accountId, query })),
});
