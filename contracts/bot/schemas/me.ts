import { z } from 'zod';
import { example } from '../../common';
import { CHANNELS, EVENT_TYPES } from '../../enums';

export const meSchema = z.object({
  login_id: z.string().describe("The VA's login ID: the `assignee` of its chats (e.g. `GET /chats?assignee=...`)"),
  name: z.string(),
  description: z.string(),
  team_id: z.number().int().describe('The one team the VA is in'),
  team_name: z.string(),
  subscriptions: z.array(z.enum(EVENT_TYPES)).describe('The event types sent to its webhook'),
  fallback_team_id: z
    .number()
    .int()
    .nullable()
    .describe('Where its chats go when an event to it fails for good (bot-down fallback); null: none'),
});

example(meSchema, {
  login_id: 'va-billing-bot',
  name: 'Billing bot',
  description: 'Answers billing questions and hands over refunds',
  team_id: 672,
  team_name: 'Virtual Agents',
  subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
  fallback_team_id: 673,
});

export type Me = z.infer<typeof meSchema>;

const assetSchema = z.object({
  id: z.number().int().describe('The `asset_id` of `POST /chats`, and the `asset` of events (as a string)'),
  channel: z.enum(CHANNELS),
  name: z.string(),
  address: z
    .string()
    .nullable()
    .describe("The asset's address on its channel (sms long code, page ID, email From address, app or service key); null when none"),
  enabled: z.boolean().describe('false: an administrator disabled it; `POST /chats` on it answers 2035, its existing chats carry on'),
});

example(assetSchema, { id: 3101, channel: 'livechat', name: 'Website chat', address: 'app-4f7d21', enabled: true });

export type Asset = z.infer<typeof assetSchema>;

export const assetPageSchema = z.object({
  assets: z.array(assetSchema),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
