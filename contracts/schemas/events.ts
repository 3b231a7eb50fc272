import { z } from 'zod';
import { CHANNELS } from '../enums';
import { isoDateTime } from './common';

/** A message inside an event's payload, in the spec's event message-entry shape. */
export const eventMessageEntrySchema = z.object({
  transid: z.string().describe('Unique trace of the message; store it with the chat_id for support'),
  type: z.string().describe('`text`, or `interactive` for an answer to an interactive element'),
  text: z.string(),
  attachments: z.array(z.object({ type: z.enum(['image', 'audio', 'video', 'file']), url: z.string() })),
  timestamp: isoDateTime,
  interactive_response: z.object({ title: z.string(), postback: z.string() }).nullable(),
  wab_interactive_response: z.object({ identifier: z.string().uuid(), title: z.string() }).optional(),
});

const envelopeBase = {
  channel: z.enum(CHANNELS),
  chat_id: z.string(),
  asset: z.string().describe('Channel asset identifier'),
  destination_id: z.string().describe('Customer address on the channel'),
  thread_id: z.string().optional().describe('livechat only'),
  browserfingerprint: z.string().optional().describe('livechat only'),
  subject: z.string().describe('Email subject; "" on other channels'),
  posted_on: isoDateTime.describe('When the service initiated this request'),
  transaction_id: z.string().describe('Unique per event, the same on every retry; also the `webhook-id` header'),
};

export const chatAssignedEventSchema = z
  .object({
    event_type: z.literal('chat.assigned'),
    ...envelopeBase,
    payload: z.object({
      skill: z.string().nullable(),
      messages: z.array(eventMessageEntrySchema).describe('The last message of the chat, if any'),
    }),
  })
  .describe('Sent when a chat is assigned to the VA');

export const messageReceivedEventSchema = z
  .object({
    event_type: z.literal('message.received'),
    ...envelopeBase,
    payload: z.object({ messages: z.array(eventMessageEntrySchema).describe('The inbound message') }),
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
      reason: z.enum(UNASSIGN_REASONS).describe('Why the VA lost the chat'),
      team_id: z.number().int().describe('Team the chat is in now'),
      assignee: z.string().nullable().describe('Login ID of the new assignee, if any'),
    }),
  })
  .describe(
    'Lost control: sent when a chat assigned to the VA is taken from it by someone else (transferred, reassigned, re-queued or closed). Stop sending messages to that chat.',
  );

export const webhookEventSchema = z.discriminatedUnion('event_type', [
  chatAssignedEventSchema,
  messageReceivedEventSchema,
  chatClosedEventSchema,
  chatUnassignedEventSchema,
]);

/** Published as OpenAPI components and served on their own as JSON Schema. */
export const eventSchemas = {
  ChatAssignedEvent: chatAssignedEventSchema,
  MessageReceivedEvent: messageReceivedEventSchema,
  ChatClosedEvent: chatClosedEventSchema,
  ChatUnassignedEvent: chatUnassignedEventSchema,
} as const;
