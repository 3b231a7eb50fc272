import { z } from 'zod';
import { intId, isoDateTime, named, text } from '../../common';

const APPROVAL_LIMITS = { action: 100, summary: 1000, details: 30, key: 64, value: 500, comment: 1000 } as const;
const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;

const detailSchema = z
  .object({
    key: text().trim().min(1).max(APPROVAL_LIMITS.key),
    value: text().max(APPROVAL_LIMITS.value),
    editable: z.boolean().default(false).describe('true: the person deciding may change this value'),
  })
  .strict();

export const createApprovalBodySchema = z
  .object({
    action: text().trim().min(1).max(APPROVAL_LIMITS.action).describe('What the bot wants to do ("refund")'),
    summary: text().trim().min(1).max(APPROVAL_LIMITS.summary).describe('What the person is asked to confirm, in a sentence or two'),
    details: z
      .array(detailSchema)
      .max(APPROVAL_LIMITS.details)
      .default([])
      .refine((d) => new Set(d.map((x) => x.key)).size === d.length, 'keys must be unique')
      .describe(`Key/values shown to the person (up to ${APPROVAL_LIMITS.details}); those marked editable may be changed`),
    expires_in_seconds: z.number().int().min(10).max(86_400).describe('How long people have to decide (10 s to 24 h)'),
    team_id: intId().describe('The team whose people decide'),
    skill_name: text().min(1).max(100).optional().describe('Only people of the team with this skill decide'),
  })
  .strict();
named('CreateApprovalBody', createApprovalBodySchema, {
  action: 'refund',
  summary: 'Refund 240 EUR for order 8841 (arrived damaged, photo in the chat)',
  details: [
    { key: 'order_id', value: '8841', editable: false },
    { key: 'amount', value: '240 EUR', editable: true },
  ],
  expires_in_seconds: 600,
  team_id: 673,
});
export type CreateApprovalBody = z.infer<typeof createApprovalBodySchema>;

export const approvalSchema = z.object({
  approval_id: z.string(),
  chat_id: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  action: z.string(),
  summary: z.string(),
  details: z.array(z.object({ key: z.string(), value: z.string(), editable: z.boolean() })).describe('As the bot asked'),
  team_id: z.number().int(),
  skill_name: z.string().nullable(),
  requested_by: z.string().describe('Login ID of the virtual agent that asked'),
  created_at: isoDateTime,
  expires_at: isoDateTime,
  decision: z
    .object({
      by: z.string().describe('Login ID of the person who decided'),
      at: isoDateTime,
      comment: z.string().nullable(),
      details: z.record(z.string()).describe('Every detail as decided (the editable ones possibly changed)'),
    })
    .nullable()
    .describe('null while pending or once expired'),
});
named('Approval', approvalSchema, {
  approval_id: '5b0f7d2e-8c41-4a5e-9d3b-2f6e1a7c9b04',
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  status: 'approved',
  action: 'refund',
  summary: 'Refund 240 EUR for order 8841 (arrived damaged, photo in the chat)',
  details: [
    { key: 'order_id', value: '8841', editable: false },
    { key: 'amount', value: '240 EUR', editable: true },
  ],
  team_id: 673,
  skill_name: null,
  requested_by: 'va-billing-bot',
  created_at: '2026-03-02T09:16:00.000Z',
  expires_at: '2026-03-02T09:26:00.000Z',
  decision: {
    by: 'alex.agent',
    at: '2026-03-02T09:17:12.000Z',
    comment: 'Approved at 200 EUR: the box was fine',
    details: { order_id: '8841', amount: '200 EUR' },
  },
});
export type Approval = z.infer<typeof approvalSchema>;

export const decideApprovalBodySchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    comment: text().trim().max(APPROVAL_LIMITS.comment).optional().describe('For the bot (and the audit log keeps who and when)'),
    details: z
      .record(text().min(1).max(APPROVAL_LIMITS.key), text().max(APPROVAL_LIMITS.value))
      .optional()
      .describe('New values of details the bot marked editable (2123 for any other key)'),
  })
  .strict();
