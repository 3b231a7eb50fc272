import { z } from 'zod';
import { example, isoDateTime } from '../../common';
import { CHANNELS } from '../../enums';
import { HANDOVER_SOURCES, handoverContextSchema } from './handover';
import { INBOUND_MESSAGE_EXAMPLE, messageSchema, OUTBOUND_MESSAGE_EXAMPLE } from './message';

/**
 * How each channel's messages reach a bot, one example each: the message as accepted (`message`)
 * and the spec's summary fields it gives. Examples are checked against the message rules by a test.
 */
export const EVENT_ENTRY_EXAMPLES = [
  {
    channels: ['sms', 'social1', 'social2', 'email', 'api'],
    shape: 'text, text with an attachment, or an attachment alone',
    message: {
      type: 'inbound',
      text: 'Here is the receipt',
      attachment: { type: 'image', url: 'https://files.example.com/r/8841.png' },
    },
    summary: {
      type: 'text',
      text: 'Here is the receipt',
      attachments: [{ type: 'image', url: 'https://files.example.com/r/8841.png' }],
      interactive_response: null,
    },
  },
  {
    channels: ['livechat'],
    shape: 'text (`livechat_sub_type: text`) or a quick-reply answer (`livechat_sub_type: quick_reply_response`)',
    message: {
      type: 'inbound',
      livechat_sub_type: 'quick_reply_response',
      quick_reply_response: {
        request_identifier: '0f8e4c1a-7d2b-4e59-9a63-5b1c2d3e4f50',
        options: [{ title: 'Card', payload: 'pay_card' }],
      },
    },
    summary: { type: 'interactive', text: '', attachments: [], interactive_response: { title: 'Card', postback: 'pay_card' } },
  },
  {
    channels: ['abc'],
    shape: 'text (`abc_sub_type: text`), a list-picker answer (`listpicker`) or a time-picker answer (`timepicker`, in UTC)',
    message: { type: 'inbound', abc_sub_type: 'listpicker', list_picker_response: ['Blue', 'Large'] },
    summary: { type: 'interactive', text: '', attachments: [], interactive_response: { title: 'Blue', postback: 'Blue' } },
  },
  {
    channels: ['messenger'],
    shape: 'text, or an answer to an interactive template (`wab_interactive_response`)',
    message: {
      type: 'inbound',
      wab_interactive_response: { identifier: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14', title: 'Track my order' },
    },
    summary: {
      type: 'interactive',
      text: '',
      attachments: [],
      interactive_response: { title: 'Track my order', postback: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14' },
      wab_interactive_response: { identifier: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14', title: 'Track my order' },
    },
  },
] as const;

const entryDoc = [
  'The message object as accepted (the shape `GET /chats/{chat_id}/messages` returns: direction in `type`, sub types, picker and quick-reply answers, `template_name`, author, timestamp in UTC, sample spellings resolved to the field names above), so a bot sees exactly what was sent. By channel:',
  ...EVENT_ENTRY_EXAMPLES.map(
    (e) =>
      `- ${e.channels.map((c) => `\`${c}\``).join(', ')}: ${e.shape}. Example: \`message\` ${JSON.stringify(e.message)} gives ${JSON.stringify(e.summary)}.`,
  ),
  '- In `chat.assigned`, the last message may be outbound (`type: outbound`, e.g. a `messenger` `hsm` template with `template_name`); its summary `type` is `text`.',
].join('\n');

/**
 * A message inside an event's payload: the spec's entry fields, which summarise the message, and
 * `message`, the message itself.
 */
export const eventMessageEntrySchema = z.object({
  transid: z
    .string()
    .describe(
      "Trace of the request streamed: the event's `transaction_id` (unique per event, the same on retries). Store it with the chat_id for support; the message's own ID is `message.transid`",
    ),
  type: z
    .enum(['text', 'interactive'])
    .describe(
      '`interactive` for an answer to an interactive element (quick reply, list or time picker, interactive template), else `text`',
    ),
  text: z.string().describe('The message text; "" when it has none'),
  attachments: z.array(z.object({ type: z.enum(['image', 'audio', 'video', 'file']), url: z.string() })),
  timestamp: isoDateTime,
  interactive_response: z
    .object({ title: z.string(), postback: z.string() })
    .nullable()
    .describe(
      "The (first) choice of an interactive answer; `postback` is the value chosen: a quick reply's `payload` (its title when no offer with that `request_identifier` is in the chat), the list item's title, the slot's start in UTC, or the template button's identifier. Every choice is in `message`",
    ),
  wab_interactive_response: z
    .object({ identifier: z.string().uuid(), title: z.string() })
    .optional()
    .describe('messenger only: the answer to an interactive template'),
  message: messageSchema.describe(entryDoc),
});

const envelopeBase = {
  channel: z.enum(CHANNELS),
  chat_id: z.string(),
  asset: z.string().describe('Channel asset identifier (the asset `id`)'),
  asset_address: z
    .string()
    .nullable()
    .describe(
      "The asset's address on its channel (sms long code, social page ID, email From address, app or service key); null when none was registered",
    ),
  destination_id: z.string().describe('Customer address on the channel'),
  team_id: z
    .number()
    .int()
    .describe(
      "The chat's team when the event was written: send it as the `team_id` header of `PATCH /chats/{chat_id}` (0 in a test event sent from the admin pages)",
    ),
  thread_id: z.string().optional().describe('livechat only'),
  browserfingerprint: z.string().optional().describe('livechat only'),
  subject: z.string().describe('Email subject; "" on other channels'),
  posted_on: isoDateTime.describe('When the service initiated this request'),
  transaction_id: z.string().describe('Unique per event, the same on every retry; also the `webhook-id` header'),
  replay: z
    .object({ run_id: z.string().describe('The replay run (`rpl_…`)') })
    .optional()
    .describe(
      'Present only on the events of a replay (a recorded conversation sent again to a VA of the replay sandbox, docs/guide/replay.md): no customer reads the replies, so a bot may stub its own tools (refunds, orders) here',
    ),
};

export const chatAssignedEventSchema = z
  .object({
    event_type: z.literal('chat.assigned'),
    ...envelopeBase,
    payload: z.object({
      skill: z.string().nullable(),
      messages: z
        .array(eventMessageEntrySchema)
        .describe('The last message sent to or received from the customer, if any (announcements never appear)'),
      transcript: z
        .array(eventMessageEntrySchema)
        .optional()
        .describe(
          'Only when the chat comes back to a VA that held it before (a person hands it back, or it is transferred back): the transcript so far, oldest first, up to the last 50 messages, announcements left out. Its last entry is the one in `messages`.',
        ),
      handback: z
        .object({
          by: z.string().describe('Login ID of the person who gave the chat back (or "an administrator")'),
          note: z.string().nullable().describe('Their note for the bot, or null'),
          held_since: isoDateTime.describe('When the chat left this VA'),
          messages: z
            .array(eventMessageEntrySchema)
            .describe(
              'What the customer and people said while people held the chat, oldest first (within the last 50 messages; internal notes never)',
            ),
        })
        .optional()
        .describe('Only when the chat comes back after this VA handed it to people: what happened while they held it'),
    }),
  })
  .describe('Sent when a chat is assigned to the VA');

export const messageReceivedEventSchema = z
  .object({
    event_type: z.literal('message.received'),
    ...envelopeBase,
    payload: z.object({
      messages: z
        .array(eventMessageEntrySchema)
        .describe('The inbound message, or every message of the turn in order when the VA gathers turns'),
      turn_id: z
        .string()
        .optional()
        .describe("The customer's turn these messages make (the guide's page on turns); answer it with `in_reply_to_turn`"),
      supersedes_turn: z
        .string()
        .optional()
        .describe('With `on_new_turn: supersede`: the earlier turn this one supersedes (its open stream was closed as `superseded`)'),
    }),
  })
  .describe('Sent when an inbound message arrives on a chat assigned to the VA');

export const chatClosedEventSchema = z
  .object({
    event_type: z.literal('chat.closed'),
    ...envelopeBase,
    payload: z.object({ timestamp: isoDateTime, chat_outcome: z.string().describe('Reason for closure; "" when none was given') }),
  })
  .describe('Sent when a chat assigned to the VA is closed, by anyone');

export const UNASSIGN_REASONS = ['transferred', 'reassigned', 'requeued', 'closed'] as const;

export const chatUnassignedEventSchema = z
  .object({
    event_type: z.literal('chat.unassigned'),
    ...envelopeBase,
    payload: z.object({
      timestamp: isoDateTime,
      reason: z
        .enum(UNASSIGN_REASONS)
        .describe(
          'Why the VA lost the chat: `transferred` (a transfer, by itself or another, or the bot-down fallback), `reassigned`, `requeued`, `closed`',
        ),
      team_id: z.number().int().describe('Team the chat is in now'),
      assignee: z
        .string()
        .nullable()
        .describe(
          'Login ID of the user the chat was handed to directly; null when it went to a queue (if auto-assign then gives it to someone, that is a later event: this VA receives `chat.assigned` when it is given the chat again)',
        ),
      handover: handoverContextSchema
        .extend({ source: z.enum(HANDOVER_SOURCES) })
        .optional()
        .describe(
          "When the chat went to people: the context people were shown, as recorded (yours, or the service's reason for a fallback)",
        ),
    }),
  })
  .describe(
    'Lost control: sent when a chat leaves the VA for any reason (its own transfer or re-queue, a transfer, reassignment, re-queue or close by someone else, the bot-down fallback, the VA being disabled; not when the VA closes the chat itself, which gives `chat.closed`). Its waiting events of that chat are superseded, never sent, and no later event of the chat comes until it is assigned the chat again; its outbound messages, changes and transfers on the chat are refused (2043). Stop sending messages to that chat.',
  );

const approvalDecidedPayload = z.object({
  approval_id: z.string(),
  action: z.string(),
  decision: z.enum(['approved', 'rejected']),
  comment: z.string().nullable().describe("The person's comment, or null"),
  details: z.record(z.string()).describe('Every detail as decided: act on these values (an editable one may have been changed)'),
  decided_by: z.string().describe('Login ID of the person who decided'),
  decided_at: isoDateTime,
});

const approvalDecidedEventSchema = z
  .object({ event_type: z.literal('approval.decided'), ...envelopeBase, payload: approvalDecidedPayload })
  .describe(
    'A person approved or rejected what the VA asked with POST /chats/{chat_id}/approvals. Sent to the VA that asked whatever its subscriptions: it asked for this answer.',
  );

const approvalExpiredEventSchema = z
  .object({
    event_type: z.literal('approval.expired'),
    ...envelopeBase,
    payload: z.object({ approval_id: z.string(), action: z.string(), expired_at: isoDateTime }),
  })
  .describe('Nobody decided the approval request within its `expires_in_seconds`: do not act. Sent whatever the VA subscribed to.');

const handoverRequestedEventSchema = z
  .object({
    event_type: z.literal('handover.requested'),
    ...envelopeBase,
    payload: z.object({
      requested_at: isoDateTime,
      source: z.literal('person_request').describe('The customer pressed "Talk to a person" in the chat widget'),
    }),
  })
  .describe(
    'The customer asked for a person (the widget\'s "Talk to a person") on a chat the VA holds, and the VA\'s `person_request` is `bot`: the chat stays with the VA, which decides. Usually it transfers with a `handover` context; it may first finish what it was doing. Sent whatever the VA subscribed to: it chose to handle the request. (With `person_request: fallback` the chat moves to the fallback route and the VA gets `chat.unassigned` instead.)',
  );

export const webhookEventSchema = z.discriminatedUnion('event_type', [
  chatAssignedEventSchema,
  messageReceivedEventSchema,
  chatClosedEventSchema,
  chatUnassignedEventSchema,
  approvalDecidedEventSchema,
  approvalExpiredEventSchema,
  handoverRequestedEventSchema,
]);

const eventBase = {
  channel: 'livechat',
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  asset: '3101',
  asset_address: 'app-4f7d21',
  destination_id: 'lc_a81f3b77',
  team_id: 672,
  thread_id: 'th_5f2c1a90',
  browserfingerprint: 'bf_91c2e0d4a7',
  subject: '',
} as const;
const { text, timestamp } = INBOUND_MESSAGE_EXAMPLE;
example(chatAssignedEventSchema, {
  event_type: 'chat.assigned',
  ...eventBase,
  posted_on: '2026-03-02T09:14:07.301Z',
  payload: {
    skill: 'billing',
    messages: [
      {
        transid: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        type: 'text',
        text,
        attachments: [],
        timestamp,
        interactive_response: null,
        message: INBOUND_MESSAGE_EXAMPLE,
      },
    ],
  },
  transaction_id: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
});
example(messageReceivedEventSchema, {
  event_type: 'message.received',
  ...eventBase,
  posted_on: '2026-03-02T09:15:12.044Z',
  payload: {
    messages: [
      {
        transid: 'b7e2d9c1-0f3a-4b5c-9d8e-7f6a5b4c3d2e',
        type: 'interactive',
        text: '',
        attachments: [],
        timestamp: '2026-03-02T09:15:11.870Z',
        interactive_response: { title: 'Card', postback: 'pay_card' },
        message: {
          transid: '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
          type: 'inbound',
          livechat_sub_type: 'quick_reply_response',
          quick_reply_response: {
            request_identifier: OUTBOUND_MESSAGE_EXAMPLE.quick_replies.request_identifier,
            options: [{ title: 'Card', payload: 'pay_card' }],
          },
          author: null,
          timestamp: '2026-03-02T09:15:11.870Z',
        },
      },
    ],
  },
  transaction_id: 'b7e2d9c1-0f3a-4b5c-9d8e-7f6a5b4c3d2e',
});
example(chatClosedEventSchema, {
  event_type: 'chat.closed',
  ...eventBase,
  posted_on: '2026-03-02T09:21:40.502Z',
  payload: { timestamp: '2026-03-02T09:21:40.317Z', chat_outcome: 'Refund issued' },
  transaction_id: 'c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f',
});
example(chatUnassignedEventSchema, {
  event_type: 'chat.unassigned',
  ...eventBase,
  posted_on: '2026-03-02T09:18:02.915Z',
  payload: { timestamp: '2026-03-02T09:18:02.640Z', reason: 'transferred', team_id: 673, assignee: null },
  transaction_id: 'd9e8f7a6-b5c4-4d3e-8f2a-1b0c9d8e7f6a',
});

example(approvalDecidedEventSchema, {
  event_type: 'approval.decided',
  ...eventBase,
  posted_on: '2026-03-02T09:17:12.410Z',
  payload: {
    approval_id: '5b0f7d2e-8c41-4a5e-9d3b-2f6e1a7c9b04',
    action: 'refund',
    decision: 'approved',
    comment: 'Approved at 200 EUR: the box was fine',
    details: { order_id: '8841', amount: '200 EUR' },
    decided_by: 'alex.agent',
    decided_at: '2026-03-02T09:17:12.000Z',
  },
  transaction_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
});
example(approvalExpiredEventSchema, {
  event_type: 'approval.expired',
  ...eventBase,
  posted_on: '2026-03-02T09:26:00.520Z',
  payload: { approval_id: '5b0f7d2e-8c41-4a5e-9d3b-2f6e1a7c9b04', action: 'refund', expired_at: '2026-03-02T09:26:00.000Z' },
  transaction_id: 'f2a3b4c5-d6e7-4f8a-9b0c-1d2e3f4a5b6c',
});
example(handoverRequestedEventSchema, {
  event_type: 'handover.requested',
  ...eventBase,
  posted_on: '2026-03-02T09:16:40.120Z',
  payload: { requested_at: '2026-03-02T09:16:40.000Z', source: 'person_request' },
  transaction_id: 'a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d',
});

/** Published as OpenAPI components and served on their own as JSON Schema. */
export const eventSchemas = {
  ChatAssignedEvent: chatAssignedEventSchema,
  MessageReceivedEvent: messageReceivedEventSchema,
  ChatClosedEvent: chatClosedEventSchema,
  ChatUnassignedEvent: chatUnassignedEventSchema,
  ApprovalDecidedEvent: approvalDecidedEventSchema,
  ApprovalExpiredEvent: approvalExpiredEventSchema,
  HandoverRequestedEvent: handoverRequestedEventSchema,
} as const;
