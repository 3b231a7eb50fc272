import { initContract } from '@ts-rest/core';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES } from './common';
import { auditPageSchema, auditQuerySchema } from './schemas/audit';

const c = initContract();

const LIST_CODES = [...READ_CODES, 2001] as const;

export const auditContract = c.router({
  listAuditEntries: {
    method: 'GET',
    path: '/audit-entries',
    summary: "The account's audit log",
    description:
      'Every state-changing admin API call of the account (sign-in itself excepted): who, when, what (the route, the target id, the field names sent and their boolean or number values; never text, so never secrets or customer messages), the answer status and the client address. Newest first. Entries are kept AUDIT_RETENTION_DAYS (365) days. Unknown query parameters are refused (2001).',
    query: auditQuerySchema,
    responses: { 200: envelope(4400, auditPageSchema), ...errors(...LIST_CODES) },
  },
});
