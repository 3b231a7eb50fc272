import { z } from 'zod';
import { cursorQuery, dateTimeInput, example, isoDateTime, pageSizeQuery, text } from '../../common';

export const auditQuerySchema = z
  .object({
    admin_email: text().max(320).optional().describe('Only this administrator'),
    action: text().max(200).optional().describe('Part of the action, e.g. `virtual-agents` or `PATCH`'),
    target_id: text().max(100).optional().describe('Only calls on this id (the first path parameter)'),
    since: dateTimeInput().optional().describe('From this time on (inclusive)'),
    until: dateTimeInput().optional().describe('Before this time'),
    page_size: pageSizeQuery,
    cursor: cursorQuery,
  })
  .strict();

export type AuditQuery = z.infer<typeof auditQuerySchema>;

const auditEntrySchema = z.object({
  id: z.number().int(),
  at: isoDateTime,
  admin_email: z.string(),
  action: z.string().describe('`METHOD /route`, as in this reference, e.g. `PATCH /api/admin/virtual-agents/:id`'),
  target_id: z.string().nullable(),
  fields: z.array(z.string()).describe('Names of the body fields sent'),
  values: z
    .record(z.union([z.boolean(), z.number(), z.null()]))
    .describe('Values of the fields that were booleans, numbers or null; text is never recorded'),
  http_status: z.number().int().describe('Status of the answer: 2xx means the change was made'),
  client_address: z.string(),
  trxid: z.string(),
});

export type AuditEntry = z.infer<typeof auditEntrySchema>;

example(auditEntrySchema, {
  id: 912,
  at: '2026-03-02T09:00:00.000Z',
  admin_email: 'ops@acme.example',
  action: 'PATCH /api/admin/virtual-agents/:id',
  target_id: '40',
  fields: ['enabled'],
  values: { enabled: false },
  http_status: 200,
  client_address: '203.0.113.24',
  trxid: '5d1c9e7a-2b4f-4a8e-9c3d-7e6f5a4b3c2d',
});

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), next_cursor: z.string().nullable() });
