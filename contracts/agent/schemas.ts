import { z } from 'zod';
import { approvalSchema } from '../bot/schemas/approval';
import { chatSchema } from '../bot/schemas/chat';
import { handoverCardSchema } from '../bot/schemas/handover';
import { attachmentSchema, messageSchema } from '../bot/schemas/message';
import { isoDateTime, text } from '../common';
import { AVAILABILITIES, CHANNELS } from '../enums';

export const agentLoginBodySchema = z.object({ email: text().min(3).max(320), password: z.string().min(1).max(1024) }).strict();

export const acceptInviteBodySchema = z
  .object({
    token: text().min(10).max(200).describe('The part of the invite link after `#`'),
    password: z.string().min(1).max(1024),
  })
  .strict();

export const QUEUE_REASONS = ['new', 'transfer', 'requeued', 'reply_timeout', 'bot_down', 'person_request'] as const;

const agentTeamSchema = z.object({ id: z.number().int(), name: z.string() });

export const agentProfileSchema = z.object({
  user_id: z.number().int(),
  login_id: z.string(),
  email: z.string(),
  kind: z.enum(['agent', 'manager']),
  availability: z.enum(AVAILABILITIES).describe('`available`: routing and auto-assign may give you chats; `unavailable`: away'),
  capacity: z.number().int().describe('Most chats you hold at once; picks and auto-assign both respect it'),
  display_name: z.string().describe('The name customers see on your replies'),
  teams: z.array(agentTeamSchema),
});

export const agentDirectorySchema = z.object({
  teams: z.array(z.object({ id: z.number().int(), name: z.string(), skills: z.array(z.string()) })),
  users: z.array(z.object({ login_id: z.string(), name: z.string(), kind: z.enum(['agent', 'manager', 'virtual_agent']) })),
});

export const setAvailabilityBodySchema = z.object({ availability: z.enum(AVAILABILITIES) }).strict();

const queueItemSchema = z.object({
  chat_id: z.string(),
  channel: z.enum(CHANNELS),
  team_id: z.number().int(),
  team_name: z.string(),
  skill: z.string().nullable(),
  customer_name: z.string().nullable(),
  destination_id: z.string(),
  queued_at: isoDateTime,
  waited_seconds: z.number().int(),
  reason: z.enum(QUEUE_REASONS).describe('Why the chat is in the queue'),
  handover: z
    .object({ from: z.string(), reason: z.string().nullable(), intent: z.string().nullable() })
    .nullable()
    .describe('When a virtual agent handed the chat over: who, why and what the customer wants (the full card is on the chat)'),
});

const mineItemSchema = z.object({
  chat_id: z.string(),
  channel: z.enum(CHANNELS),
  status: z.enum(['picked', 'onhold']),
  team_id: z.number().int(),
  customer_name: z.string().nullable(),
  destination_id: z.string(),
  updated_at: isoDateTime,
  awaiting_reply: z.boolean().describe('The last message is from the customer'),
});

export const workspaceListsSchema = z.object({
  queue: z.array(queueItemSchema),
  mine: z.array(mineItemSchema),
  approvals: z.array(approvalSchema).describe("Pending approval requests for the person's teams (and skills), oldest first"),
});

export const agentChatSchema = z.object({
  chat: chatSchema,
  assignee_kind: z.enum(['agent', 'manager', 'virtual_agent']).nullable(),
  handover: handoverCardSchema
    .nullable()
    .describe("The chat's latest handover from a virtual agent, shown before the transcript; null when no bot handed it over"),
  approvals: z.array(approvalSchema).describe("The chat's approval requests, newest first (the last 20)"),
  transcript: z
    .array(messageSchema)
    .describe('The whole transcript, oldest first (the last 500 messages); announcements are internal notes'),
});

export const agentChatDetailsSchema = agentChatSchema.omit({ transcript: true }).extend({
  chat: chatSchema.omit({ messages: true }),
});

export const agentReplyBodySchema = z
  .object({
    text: text().min(1).max(4096).optional(),
    attachment: attachmentSchema.optional(),
    quick_replies: z
      .array(text().trim().min(1).max(200))
      .min(1)
      .max(13)
      .optional()
      .describe('Titles of quick replies offered to the customer (livechat only); each answers with its title'),
  })
  .strict();

export const agentNoteBodySchema = z.object({ text: text().trim().min(1).max(4096) }).strict();

export const agentTagsBodySchema = z
  .object({
    add_tags: z.array(text().min(1).max(100)).max(50).optional(),
    remove_tags: z.array(text().min(1).max(100)).max(50).optional(),
  })
  .strict();

export const agentTransferBodySchema = z
  .object({
    team_id: z.number().int().positive().max(2_147_483_647).optional().describe('To a team queue (with `skill_name`, to a skill of it)'),
    skill_name: text().min(1).max(100).optional(),
    assignee: text().min(1).max(200).optional().describe('To a person or back to a virtual agent: their login ID'),
  })
  .strict();

export const agentHandBackBodySchema = z
  .object({
    note: text().trim().max(1000).optional().describe('For the bot: carried by its chat.assigned (`payload.handback.note`)'),
    assignee: text().min(1).max(200).optional().describe('Login ID of the virtual agent; omitted: the one that handed the chat over last'),
  })
  .strict();

export const agentDisplayNameBodySchema = z
  .object({
    display_name: text()
      .trim()
      .min(1)
      .max(60)
      .nullable()
      .describe("The name customers see on this person's replies; null: their first name"),
  })
  .strict();

export const agentCloseBodySchema = z.object({ outcome: text().max(200).optional() }).strict();
