import { z } from 'zod';
import { example, intId, isoDateTime, KEY_RULE, named, nameText, text, withOpenApi } from '../../common';
import { EVENT_TYPES, REPLY_TIMEOUT_ACTIONS } from '../../enums';
import { customAttributesSchema, immutableField, nameSchema, skillNameSchema } from './common';

const webhookUrlSchema = text()
  .min(1)
  .max(2048)
  .describe(
    'Absolute https URL. Private, loopback and link-local addresses (also after DNS) are refused with 3007, unless the service runs with WEBHOOK_ALLOW_PRIVATE=true',
  );

const webhookHeadersSchema = withOpenApi(
  z
    .record(text().max(200), text())
    .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
    .describe(
      `Static headers added to every webhook call: at most 20, names up to 200 characters; ${KEY_RULE}. The signature headers, content-type, host and other transport headers are reserved`,
    ),
  { maxProperties: 20 },
);

const DELIVERY_MODES = ['webhook', 'pull'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

const deliveryModeSchema = z
  .enum(DELIVERY_MODES)
  .describe(
    '`webhook` (default): events are POSTed to `webhook_url`. `pull`: nothing is POSTed; the bot reads them with `GET /api/v1/events` or the stream, and its acknowledgements mark them delivered',
  );

const subscriptionsSchema = z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length).describe('Event types sent to the webhook');

const turnWindowMsSchema = z
  .number()
  .int()
  .refine((v) => v === 0 || (v >= 300 && v <= 10_000), 'must be 0 (off) or from 300 to 10000')
  .describe(
    "How long a customer's burst of messages is gathered into one `message.received` (a turn), in ms after the last one: 0 (off, the default: every message is sent at once) or 300-10000. Closes early when the widget says the customer stopped typing",
  );
const turnWindowMaxMsSchema = z
  .number()
  .int()
  .min(300)
  .max(30_000)
  .nullable()
  .describe('The longest a turn is held from its first message, in ms (300-30000, at least `turn_window_ms`); null: 10000');
const onNewTurnSchema = z
  .enum(['continue', 'supersede'])
  .describe(
    'When the customer starts a new turn while the bot is typing or streaming a reply to the previous one: `continue` (default) lets the reply go on; `supersede` withdraws it (the stream ends `superseded`, later chunks are 2101) and refuses replies to earlier turns (2100)',
  );

const replyTimeoutSecondsSchema = z
  .number()
  .int()
  .min(5)
  .max(600)
  .nullable()
  .describe(
    'The reply budget: seconds a customer may wait in a chat the VA holds with no reply, no typing and no open stream since their message (5-600); null (the default) turns it off. Typing and an open stream pause it',
  );
const replyTimeoutActionSchema = z
  .enum(REPLY_TIMEOUT_ACTIONS)
  .describe(
    'When the budget runs out: `handover` (the VA gets `chat.unassigned` and the chat goes to the fallback team, as the bot-down fallback does; needs `fallback_team_id`) or `notify` (counted and shown on the VA page only). Default `handover`',
  );

const PERSON_REQUEST_MODES = ['fallback', 'bot'] as const;

const maxHandoversPerChatSchema = z
  .number()
  .int()
  .min(1)
  .max(20)
  .describe(
    'How many times this VA may hand one chat to people (1-20, default 3). Past it the chat stays with people: a hand-back to this VA, its own transfer back and auto-assign to it are refused (2120), and the workspace says why',
  );
const personRequestSchema = z
  .enum(PERSON_REQUEST_MODES)
  .describe(
    "What the widget's \"Talk to a person\" does on this VA's chats: `fallback` (default) moves the chat to the VA's fallback team and skill (the chat's team queue without one), as a handover from the VA with source `person_request`; `bot` leaves the chat with the VA and sends it `handover.requested`, and the bot decides (it usually transfers with context)",
  );

const vaSkillsSchema = z
  .array(skillNameSchema)
  .max(100)
  .describe("Skill **names** of the VA's team (as `skill_name` in transfers); an unknown name answers 2034");

export const adminVirtualAgentSchema = z.object({
  id: z.number().int(),
  login_id: z.string().describe('Name chats use in `assignee`'),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  delivery_mode: deliveryModeSchema,
  webhook_url: z.string().nullable().describe('null: none (allowed in `pull` delivery mode only)'),
  webhook_headers: z.record(z.string()),
  subscriptions: z.array(z.enum(EVENT_TYPES)),
  team_id: z.number().int(),
  team_name: z.string(),
  skills: z.array(z.string()).describe("Skill names, all of the VA's team"),
  custom_attributes: z.record(z.string()),
  fallback_team_id: z.number().int().nullable(),
  fallback_skill: z.string().nullable(),
  reply_timeout_seconds: z.number().int().nullable().describe('The reply budget in seconds; null when off'),
  reply_timeout_action: z.enum(REPLY_TIMEOUT_ACTIONS),
  turn_window_ms: z.number().int().describe('Turn window in ms; 0 when off'),
  turn_window_max_ms: z.number().int().nullable().describe('Cap of a turn in ms; null: 10000'),
  on_new_turn: z.enum(['continue', 'supersede']),
  max_handovers_per_chat: z
    .number()
    .int()
    .describe('How many times the VA may hand one chat to people; past it the chat stays with people'),
  person_request: z.enum(PERSON_REQUEST_MODES).describe('What the widget\'s "Talk to a person" does: `fallback` or `bot`'),
  api_key_prefix: z.string().describe('First characters of the current API key, to tell keys apart'),
  webhook_disabled: z
    .object({ at: isoDateTime, reason: z.string() })
    .nullable()
    .describe(
      'Set when delivery to the webhook stopped by itself (the receiver answered 410 Gone); its events are held. Changing `webhook_url` clears it and releases them.',
    ),
  webhook_failing: z
    .object({ since: isoDateTime, marked_at: isoDateTime })
    .nullable()
    .describe(
      'Set when the webhook has had nothing but failed attempts since `since` for longer than the service allows (3 days by default); its events keep being retried. Its next delivered event clears it.',
    ),
  event_cursor: z
    .object({
      last_read_at: isoDateTime
        .nullable()
        .describe(
          'The last `GET /api/v1/events`, or the last refresh of an open event stream (about every 15 s while one is open); null: never',
        ),
      acknowledged_cursor: z.string().nullable().describe('The acknowledged position (pull mode only); null: nothing acknowledged yet'),
      acknowledged_at: isoDateTime.nullable().describe('When the acknowledged position last moved'),
      open_streams: z.number().int().describe('Event streams open now, over all instances'),
    })
    .describe(
      "Where the VA's bot stands in its pulled events. In pull mode the bot-down fallback hands its chats over when `last_read_at` is older than the configured idle time while their events wait",
    ),
  previous_api_key_valid_until: isoDateTime
    .nullable()
    .describe('After a key rotation with overlap: until when the previous API key still authorizes'),
  previous_signing_secret_valid_until: isoDateTime
    .nullable()
    .describe('After a secret rotation with overlap: until when deliveries also carry a signature with the previous secret'),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type AdminVirtualAgent = z.infer<typeof adminVirtualAgentSchema>;

const VA_EXAMPLE = {
  id: 40,
  login_id: 'va-billing-bot',
  name: 'Billing bot',
  description: 'Answers billing questions and issues refunds',
  enabled: true,
  delivery_mode: 'webhook',
  webhook_url: 'https://bot.acme.example/va/events',
  webhook_headers: { 'x-bot-tenant': 'acme' },
  subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
  team_id: 672,
  team_name: 'Virtual Agents',
  skills: ['billing'],
  custom_attributes: {},
  fallback_team_id: 673,
  fallback_skill: 'billing',
  reply_timeout_seconds: 45,
  reply_timeout_action: 'handover',
  turn_window_ms: 1500,
  turn_window_max_ms: 8000,
  on_new_turn: 'supersede',
  max_handovers_per_chat: 3,
  person_request: 'fallback',
  api_key_prefix: 'vak_Qm4x',
  webhook_disabled: null,
  webhook_failing: null,
  event_cursor: { last_read_at: null, acknowledged_cursor: null, acknowledged_at: null, open_streams: 0 },
  previous_api_key_valid_until: null,
  previous_signing_secret_valid_until: '2026-03-03T09:14:00.000Z',
  created_at: '2026-02-20T08:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
} satisfies AdminVirtualAgent;
named('AdminVirtualAgent', adminVirtualAgentSchema, VA_EXAMPLE);

export const createdVirtualAgentSchema = adminVirtualAgentSchema.extend({
  api_key: z.string().describe('Exchange at POST /api/v1/authorize. Shown only in this answer'),
  signing_secret: z.string().describe('`whsec_...` key of the webhook signatures. Shown only in this answer'),
});
named('CreatedVirtualAgent', createdVirtualAgentSchema, {
  ...VA_EXAMPLE,
  api_key: 'vak_Qm4xT1rZ8bN2cV6yH0wL5pK9sJ3dF7gA2eU1iO4nB8',
  signing_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const createVirtualAgentBodySchema = z
  .object({
    name: nameSchema.describe('Cannot be changed later; also gives the login ID (`va-<slug>`)'),
    description: nameText().trim().min(1).max(1000).describe('Cannot be changed later'),
    delivery_mode: deliveryModeSchema.optional(),
    webhook_url: webhookUrlSchema
      .optional()
      .describe(`Required in \`webhook\` delivery mode, optional in \`pull\`. ${webhookUrlSchema.description}`),
    webhook_headers: webhookHeadersSchema.optional(),
    subscriptions: subscriptionsSchema.optional().describe('Default `["chat.assigned", "message.received"]`'),
    team_id: intId().describe('The one team of the VA'),
    skills: vaSkillsSchema.optional(),
    custom_attributes: customAttributesSchema.optional(),
    fallback_team_id: intId().nullable().optional(),
    fallback_skill: skillNameSchema.nullable().optional().describe('Skill name in the fallback team'),
    reply_timeout_seconds: replyTimeoutSecondsSchema.optional(),
    reply_timeout_action: replyTimeoutActionSchema.optional(),
    turn_window_ms: turnWindowMsSchema.optional(),
    turn_window_max_ms: turnWindowMaxMsSchema.optional(),
    on_new_turn: onNewTurnSchema.optional(),
    max_handovers_per_chat: maxHandoversPerChatSchema.optional(),
    person_request: personRequestSchema.optional(),
  })
  .strict();
named('CreateVirtualAgentBody', createVirtualAgentBodySchema, {
  name: 'Billing bot',
  description: 'Answers billing questions and issues refunds',
  webhook_url: 'https://bot.acme.example/va/events',
  webhook_headers: { 'x-bot-tenant': 'acme' },
  subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
  team_id: 672,
  skills: ['billing'],
  fallback_team_id: 673,
  fallback_skill: 'billing',
});

export type CreateVirtualAgentBody = z.infer<typeof createVirtualAgentBodySchema>;

export const updateVirtualAgentBodySchema = z
  .object({
    name: immutableField('`name`'),
    description: immutableField('`description`'),
    delivery_mode: deliveryModeSchema
      .optional()
      .describe(
        'Switching to `pull` stops POSTs (waiting events stay for the bot to read); switching to `webhook` needs a webhook URL and sends every event not yet acknowledged',
      ),
    webhook_url: webhookUrlSchema.nullable().optional().describe(`null removes it (\`pull\` mode only). ${webhookUrlSchema.description}`),
    webhook_headers: webhookHeadersSchema.optional().describe(`Replaces all static headers. ${webhookHeadersSchema.description}`),
    subscriptions: subscriptionsSchema.optional(),
    team_id: intId()
      .optional()
      .describe('Moves the VA to this team (its only one). Without `skills`, skills with the same name in the new team are kept'),
    skills: vaSkillsSchema.optional().describe('Replaces all skills'),
    custom_attributes: customAttributesSchema.optional().describe(`Replaces all attributes. ${customAttributesSchema.description}`),
    enabled: z.boolean().optional().describe('A disabled VA gets no chats, no events and no access tokens'),
    fallback_team_id: intId().nullable().optional(),
    fallback_skill: skillNameSchema.nullable().optional(),
    reply_timeout_seconds: replyTimeoutSecondsSchema.optional(),
    reply_timeout_action: replyTimeoutActionSchema.optional(),
    turn_window_ms: turnWindowMsSchema.optional(),
    turn_window_max_ms: turnWindowMaxMsSchema.optional(),
    on_new_turn: onNewTurnSchema.optional(),
    max_handovers_per_chat: maxHandoversPerChatSchema.optional(),
    person_request: personRequestSchema.optional(),
  })
  .strict();
named('UpdateVirtualAgentBody', updateVirtualAgentBodySchema, {
  subscriptions: ['chat.assigned', 'message.received'],
  reply_timeout_seconds: 45,
  reply_timeout_action: 'notify',
});

export type UpdateVirtualAgentBody = z.infer<typeof updateVirtualAgentBodySchema>;

const rotationModeSchema = z.enum(['at_once', 'overlap']);

export const rotateApiKeyBodySchema = z
  .object({
    mode: rotationModeSchema
      .default('at_once')
      .describe(
        '`at_once` (a leaked key): the old key and its access tokens stop working now. `overlap`: the old key keeps authorizing for API_KEY_OVERLAP_SECONDS (24 h by default) and its tokens live out their time',
      ),
  })
  .strict()
  .optional();

export const rotateSigningSecretBodySchema = z
  .object({
    mode: rotationModeSchema
      .default('overlap')
      .describe(
        '`overlap`: for SIGNING_SECRET_OVERLAP_SECONDS (24 h by default) each delivery carries signatures with both secrets, so a bot can switch without failing any. `at_once` (a leaked secret): the old one is dropped now',
      ),
  })
  .strict()
  .optional();

export const rotatedApiKeySchema = z.object({
  id: z.number().int(),
  api_key: z.string().describe('Shown only in this answer'),
  api_key_prefix: z.string(),
  previous_valid_until: isoDateTime.nullable().describe('Until when the previous key still authorizes (null: it stopped at once)'),
});
named('RotatedApiKey', rotatedApiKeySchema, {
  id: 40,
  api_key: 'vak_Zp7wR2nX5cM8bV1tL4kJ9hG6fD3sA0qW2eR5tY8uI1',
  api_key_prefix: 'vak_Zp7w',
  previous_valid_until: '2026-03-03T09:14:00.000Z',
});

export const rotatedSigningSecretSchema = z.object({
  id: z.number().int(),
  signing_secret: z.string().describe('Shown only in this answer. Deliveries from now on are signed with it'),
  previous_valid_until: isoDateTime
    .nullable()
    .describe('Until when deliveries also carry a signature with the previous secret (null: dropped at once)'),
});
named('RotatedSigningSecret', rotatedSigningSecretSchema, {
  id: 40,
  signing_secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
  previous_valid_until: '2026-03-03T09:14:00.000Z',
});
example(rotateApiKeyBodySchema, { mode: 'overlap' });
example(rotateSigningSecretBodySchema, { mode: 'overlap' });

export const vaRepliesSchema = z.object({
  waiting_count: z.number().int().describe('Chats the VA holds whose customer is waiting for its reply now'),
  waiting: z
    .array(
      z.object({
        chat_id: z.string(),
        since: isoDateTime.describe("Since when the customer has waited (their message, or the chat's hand-over to the VA)"),
        reply_due_at: isoDateTime.nullable().describe('When the reply budget runs out; null when it is off or already acted on'),
      }),
    )
    .describe('The 20 longest waits, longest first'),
  timeouts_24h: z
    .object({ handover: z.number().int(), notify: z.number().int() })
    .describe('Reply budgets that ran out in the last 24 hours, by action'),
  timeouts: z
    .array(
      z.object({
        chat_id: z.string(),
        action: z.enum(REPLY_TIMEOUT_ACTIONS),
        waited_seconds: z.number().int(),
        at: isoDateTime,
      }),
    )
    .describe('The 20 latest reply timeouts, newest first'),
});

example(vaRepliesSchema, {
  waiting_count: 1,
  waiting: [
    { chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', since: '2026-03-02T09:14:07.120Z', reply_due_at: '2026-03-02T09:14:52.120Z' },
  ],
  timeouts_24h: { handover: 2, notify: 0 },
  timeouts: [{ chat_id: '1b4e28ba-2fa1-4d2b-a8f3-7f1c9e0a5d21', action: 'handover', waited_seconds: 46, at: '2026-03-02T08:51:30.000Z' }],
});

export type VaReplies = z.infer<typeof vaRepliesSchema>;
