import { z } from 'zod';
import { INT4_DECIMAL_PATTERN, intId, isoDateTime, KEY_RULE, named, otherDetailsSchema, text, withOpenApi } from '../../common';
import { CHANNELS, CHAT_STATUSES } from '../../enums';
import { handoverContextSchema } from './handover';
import { INBOUND_MESSAGE_EXAMPLE, messageInputSchema, messageSchema, OUTBOUND_MESSAGE_EXAMPLE } from './message';

const assetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z
    .string()
    .nullable()
    .describe(
      "The asset's address on its channel: sms long code, social page or owner ID, email From address, app or service key; null when none was registered",
    ),
});
named('Asset', assetSchema);
const customerSchema = z.object({
  id: z.number().int(),
  destination_id: z.string().describe('Customer address on the channel'),
  name: z.string(),
});
named('Customer', customerSchema);

export const chatSchema = z.object({
  chat_id: z.string(),
  alias_id: z.string().nullable(),
  team_id: z.number().int(),
  team_name: z.string(),
  skill: z.string().nullable().describe('Skill of the team the chat waits for, if any'),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  status: z.enum(CHAT_STATUSES),
  channel: z.enum(CHANNELS),
  subject: z.string().nullable().describe('Email channel only'),
  thread_id: z.string().nullable().describe('livechat only'),
  browserfingerprint: z.string().nullable().describe('livechat only'),
  asset: assetSchema,
  customer: customerSchema,
  messages: z
    .array(messageSchema)
    .describe(
      'The latest messages, oldest first (up to 20 in a chat read, the last one in a list); the whole transcript is at GET /chats/{chat_id}/messages',
    ),
  assignee: z.string().nullable().describe('Login ID of the assigned user'),
  flag: z.string().nullable(),
  tag: z
    .array(z.string())
    .describe('Tags currently applied (replace them all with `tags`, or change some with `add_tags` and `remove_tags`)'),
  other_details: otherDetailsSchema,
  outcome: z.string().nullable().describe('Reason for closure'),
  typing: z
    .object({
      on: z.literal(true),
      expires_at: isoDateTime.describe('When it goes off unless the VA refreshes it'),
      status_text: z.string().nullable().describe("The VA's working status, if it sent one"),
    })
    .nullable()
    .describe("The assigned VA's typing indicator while it is on (PUT /chats/{chat_id}/typing); null otherwise"),
});
export type Chat = z.infer<typeof chatSchema>;

/** The chat the documents show (the admin API's chat detail shows it too). */
export const CHAT_EXAMPLE = {
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  alias_id: 'CRM-88412',
  team_id: 672,
  team_name: 'Virtual Agents',
  skill: 'billing',
  created_at: '2026-03-02T09:14:07.120Z',
  updated_at: '2026-03-02T09:14:09.482Z',
  status: 'picked',
  channel: 'livechat',
  subject: null,
  thread_id: 'th_5f2c1a90',
  browserfingerprint: 'bf_91c2e0d4a7',
  asset: { id: 3101, name: 'Website chat', address: 'app-4f7d21' },
  customer: { id: 5521, destination_id: 'lc_a81f3b77', name: 'Dana Whitfield' },
  messages: [INBOUND_MESSAGE_EXAMPLE, OUTBOUND_MESSAGE_EXAMPLE],
  assignee: 'va-billing-bot',
  flag: null,
  tag: ['billing', 'refund'],
  other_details: { order_id: 'A-10442', vip: true },
  outcome: null,
  typing: { on: true, expires_at: '2026-03-02T09:14:20.000Z', status_text: 'Looking up your order…' },
} satisfies Chat;
named('Chat', chatSchema, CHAT_EXAMPLE);

export const chatPageSchema = z.object({
  chats: z.array(chatSchema),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
named('ChatPage', chatPageSchema);

const tagsSchema = z.array(text().trim().min(1).max(100)).max(50);

export const createChatBodySchema = z
  .object({
    channel: z.enum(CHANNELS),
    asset_id: intId().describe('Channel asset the chat is created on'),
    customer: z
      .object({
        destination_id: text().trim().min(1).max(320),
        name: text().max(200).optional(),
      })
      .strict(),
    team_id: intId().optional().describe('Team to put the chat in; routing rules decide when omitted'),
    assignee: text().min(1).max(200).optional().describe('Login ID to assign the chat to, e.g. a VA'),
    skill: text().min(1).max(100).optional(),
    alias_id: text().min(1).max(200).optional(),
    subject: text().max(998).optional().describe('Email only'),
    thread_id: text().max(200).optional().describe('livechat only'),
    browserfingerprint: text().max(200).optional().describe('livechat only'),
    tags: tagsSchema.optional(),
    route_params: z
      .record(text().max(100), text().max(500))
      .optional()
      .describe(`Attributes routing rules may match on. Keys: up to 100 characters; values: up to 500; ${KEY_RULE}`),
    other_details: otherDetailsSchema.optional(),
    messages: z.array(messageInputSchema).max(50).optional().describe('Initial messages, oldest first'),
  })
  .strict();
named('CreateChatBody', createChatBodySchema, {
  channel: 'livechat',
  asset_id: 3101,
  customer: { destination_id: 'lc_a81f3b77', name: 'Dana Whitfield' },
  assignee: 'va-billing-bot',
  alias_id: 'CRM-88412',
  thread_id: 'th_5f2c1a90',
  browserfingerprint: 'bf_91c2e0d4a7',
  other_details: { order_id: 'A-10442', vip: true },
  messages: [{ type: 'inbound', text: 'Hi, I was charged twice for order A-10442', livechat_sub_type: 'text' }],
});

export type CreateChatBody = z.infer<typeof createChatBodySchema>;

export const updateChatBodySchema = z
  .object({
    alias_id: text().min(1).max(200).nullable().optional(),
    tags: tagsSchema.optional().describe('Replaces all existing tags. Not with `add_tags` or `remove_tags` (2017)'),
    add_tags: tagsSchema
      .optional()
      .describe(
        "Tags to add to those the chat carries, applied under the chat's lock so that concurrent writers do not lose each other's tags; tags already there stay where they are. A chat carries at most 50 tags (2000)",
      ),
    remove_tags: tagsSchema
      .optional()
      .describe(
        'Tags to take off the chat (a tag it does not carry is ignored). A tag may not be in both `add_tags` and `remove_tags` (2017)',
      ),
    status: z.enum(CHAT_STATUSES).optional(),
    assignee: text().min(1).max(200).nullable().optional().describe('Login ID to assign to; null unassigns'),
    outcome: text().min(1).max(500).optional().describe('Reason for closure, with `status: closed`'),
    other_details: otherDetailsSchema
      .optional()
      .describe(`Merged into the existing pairs; a null value removes a key. ${otherDetailsSchema.description}`),
    handover: handoverContextSchema.optional(),
  })
  .strict();
named('UpdateChatBody', updateChatBodySchema, { tags: ['billing', 'refund', 'resolved'], status: 'closed', outcome: 'Refund issued' });
// The service refuses `{}` (2000): at least one field must be sent.
withOpenApi(updateChatBodySchema, { minProperties: 1 });

export type UpdateChatBody = z.infer<typeof updateChatBodySchema>;

export const transferBodySchema = z
  .object({
    transfer: z
      .object({
        teamid: z
          .union([intId(), text().regex(INT4_DECIMAL_PATTERN, 'must be a positive integer up to 2147483647')])
          .describe('Target team ID (an integer, or a numeric string)'),
        skill_name: text().min(1).max(100).optional().describe("Skill in the team; omitted: the team's queue"),
      })
      .strict(),
    handover: handoverContextSchema.optional(),
  })
  .strict();
named('TransferBody', transferBodySchema, {
  transfer: { teamid: 673, skill_name: 'billing' },
  handover: { reason: 'Refund above what the bot may grant', intent: 'refund', fields: { order_id: '8841', amount: '240 EUR' } },
});
