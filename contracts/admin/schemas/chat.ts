import { z } from 'zod';
import { approvalSchema } from '../../bot/schemas/approval';
import { CHAT_EXAMPLE, chatSchema } from '../../bot/schemas/chat';
import { handoverCardSchema } from '../../bot/schemas/handover';
import { messageInputSchema, messageSchema } from '../../bot/schemas/message';
import { cursorQuery, intIdParam, isoDateTime, named, pageSizeQuery, text } from '../../common';
import { CHANNELS, CHAT_STATUSES, EVENT_STATUSES, EVENT_TYPES } from '../../enums';

export const listAdminChatsQuerySchema = z
  .object({
    status: z.enum(CHAT_STATUSES).optional(),
    channel: z.enum(CHANNELS).optional(),
    team_id: intIdParam().optional(),
    assignee: text().max(200).optional().describe('Login ID of the assignee'),
    tag: text().max(100).optional(),
    q: text()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Chat ID (or its start), alias ID, customer destination ID or name (parts match, any case)'),
    page_size: pageSizeQuery,
    cursor: cursorQuery,
  })
  .strict();

export type ListAdminChatsQuery = z.infer<typeof listAdminChatsQuerySchema>;

const deliveryAttemptSchema = z.object({
  attempt_number: z.number().int(),
  started_at: isoDateTime,
  duration_ms: z.number().int(),
  http_status: z.number().int().nullable().describe('null when no answer came (network error, timeout, refused address)'),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('First bytes of the answer body'),
});
named('DeliveryAttempt', deliveryAttemptSchema);

const adminEventSchema = z.object({
  id: z.number().int().describe('Use with POST /api/admin/events/{id}/redeliver'),
  transaction_id: z.string(),
  event_type: z.enum(EVENT_TYPES),
  virtual_agent_login_id: z.string(),
  seq: z.number().int().describe("Order of the event among the chat's events"),
  status: z
    .enum(EVENT_STATUSES)
    .describe(
      '`superseded`: the chat left the VA while the event waited to be sent or retried, so it is not sent (again); the VA got `chat.unassigned`. An event being sent when the chat left is recorded as its attempt ended: delivered on a 200, superseded rather than retried on a failure',
    ),
  attempt_count: z.number().int(),
  next_attempt_at: isoDateTime,
  last_error: z.string().nullable(),
  created_at: isoDateTime,
  delivered_at: isoDateTime.nullable(),
  failed_at: isoDateTime.nullable(),
  superseded_at: isoDateTime
    .nullable()
    .describe('When the chat left the VA before this event was delivered: the event is `superseded` and is not sent (again)'),
  body: z.record(z.unknown()).describe('The event body as sent, without `posted_on` (stamped on each attempt)'),
  attempts: z.array(deliveryAttemptSchema),
  turn: z
    .object({
      turn_id: z.string(),
      held_until: isoDateTime
        .nullable()
        .describe("Set while the turn's window is open: the event waits until then (or until the customer stops typing)"),
      held_ms: z.number().int().nullable().describe('How long the event was held for its window, once released'),
      closed_by: z
        .string()
        .nullable()
        .describe(
          'What closed the window: `typing` (the customer stopped), `window`, `cap`, or `event` (something else happened in the chat)',
        ),
    })
    .nullable()
    .optional()
    .describe('`message.received` only: the customer turn it carries (see the guide on turns)'),
});
named('AdminEvent', adminEventSchema);

export type AdminEvent = z.infer<typeof adminEventSchema>;

export const adminChatDetailSchema = chatSchema.extend({
  messages: z.array(messageSchema).describe('The whole transcript, oldest first, announcements included'),
  events: z.array(adminEventSchema).describe('Every event of the chat, by sequence, with every delivery attempt'),
  handover: handoverCardSchema.nullable().describe("The chat's latest handover from a virtual agent, with its context; null when none"),
  approvals: z.array(approvalSchema).describe("The chat's approval requests, newest first (the last 20)"),
});
named('AdminChatDetail', adminChatDetailSchema, {
  ...CHAT_EXAMPLE,
  events: [
    {
      id: 901,
      transaction_id: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      event_type: 'chat.assigned',
      virtual_agent_login_id: 'va-billing-bot',
      seq: 1,
      status: 'delivered',
      attempt_count: 2,
      next_attempt_at: '2026-03-02T09:14:08.310Z',
      last_error: null,
      created_at: '2026-03-02T09:14:07.140Z',
      delivered_at: '2026-03-02T09:14:08.522Z',
      failed_at: null,
      superseded_at: null,
      body: { event_type: 'chat.assigned', channel: 'livechat', chat_id: CHAT_EXAMPLE.chat_id },
      attempts: [
        {
          attempt_number: 1,
          started_at: '2026-03-02T09:14:07.301Z',
          duration_ms: 5003,
          http_status: null,
          error: 'timeout after 5000 ms',
          response_excerpt: null,
        },
        {
          attempt_number: 2,
          started_at: '2026-03-02T09:14:08.310Z',
          duration_ms: 212,
          http_status: 200,
          error: null,
          response_excerpt: '{"ok":true}',
        },
      ],
    },
  ],
  handover: null,
  approvals: [],
});

export type AdminChatDetail = z.infer<typeof adminChatDetailSchema>;

/** The chat detail without its transcript, as the console's live view sends it when it changes. */
export const adminChatDetailsSchema = adminChatDetailSchema.omit({ messages: true });
named('AdminChatDetails', adminChatDetailsSchema);

export const adminMessageBodySchema = messageInputSchema
  .extend({
    type: z
      .enum(['inbound', 'announcement'])
      .describe('`inbound`: as the customer (emits `message.received`); `announcement`: a note for agents and admins'),
  })
  .strict();
named('AdminMessageBody', adminMessageBodySchema, { type: 'inbound', text: 'Hi, I was charged twice for order A-10442' });
