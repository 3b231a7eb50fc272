import { z } from 'zod';
import { attachmentSchema } from '../bot/schemas/message';
import { isoDateTime, named, nameText, text, withOpenApi } from '../common';

/** Longest message text a customer may send through the widget (the bot API allows 4096). */
const WIDGET_TEXT_MAX = 2000;

export const widgetAppSchema = z.object({
  app_id: z.number().int().describe('The livechat asset id'),
  name: z.string().describe('The asset name, shown as the chat title'),
  enabled: z.boolean().describe('false: the chat takes no new conversations (the asset is disabled)'),
});
named('WidgetApp', widgetAppSchema, { app_id: 3101, name: 'Acme support', enabled: true });

export type WidgetApp = z.infer<typeof widgetAppSchema>;

export const widgetVisitorSchema = z.object({
  livechat_id: z.string().describe("The browser's stable livechat id: the customer's `destination_id` on the livechat channel"),
  token: z
    .string()
    .describe('The customer credential: send it as `Authorization: Bearer <token>`; it reaches only this customer’s chats of this app'),
  expires_at: isoDateTime,
});
named('WidgetVisitor', widgetVisitorSchema, {
  livechat_id: 'lc-6f1d2a9c4b7e4f0a',
  token: 'wv1.eyJhIjozMTAxLCJsIjoibGMtNmYxZDJhOWM0YjdlNGYwYSJ9.Q2xk8xZ0v1bM4nW9rT3yH6jK2pL5sA7dF0gE8uI1oC4',
  expires_at: '2026-10-31T10:15:00.000Z',
});

export type WidgetVisitor = z.infer<typeof widgetVisitorSchema>;

/**
 * A message as the customer sees it: what the customer wrote and what was sent to them. No
 * announcements, no authors, no payloads. `id` orders the transcript and is the resume cursor.
 */
export const widgetMessageSchema = z.object({
  id: z.number().int().describe('Order of the message in the chat; pass the last one seen as `after`'),
  from: z.enum(['customer', 'business']),
  text: z.string().optional(),
  attachment: attachmentSchema.optional(),
  quick_replies: z
    .object({ request_identifier: z.string(), options: z.array(z.object({ title: z.string() })) })
    .optional()
    .describe('Choices offered to the customer'),
  quick_reply_response: z
    .object({ request_identifier: z.string(), options: z.array(z.object({ title: z.string() })) })
    .optional()
    .describe('The choice the customer made'),
  withdrawn: z
    .literal(true)
    .optional()
    .describe(
      'A streamed reply the bot withdrew: the customer wrote again before it was finished (or a person took over). It carries no text; the page shows it as withdrawn in place of the partial text',
    ),
  timestamp: isoDateTime,
});
named('WidgetMessage', widgetMessageSchema, {
  id: 1041,
  from: 'customer',
  text: 'Where is my order A-10442?',
  timestamp: '2026-05-04T10:15:02.000Z',
});

export type WidgetMessage = z.infer<typeof widgetMessageSchema>;

export const widgetChatSchema = z.object({
  chat_id: z.string(),
  status: z.enum(['open', 'closed']),
  handled_by: z
    .enum(['waiting', 'bot', 'person'])
    .describe('`waiting`: in a queue; `bot`: a virtual agent answers; `person`: a person has taken over'),
  responder: z
    .object({
      kind: z.enum(['bot', 'person']).describe('`bot`: a virtual agent (an automated assistant); `person`: a person'),
      name: z.string().describe("The virtual agent's name, or the name the person chose to show customers"),
    })
    .nullable()
    .describe('Who answers now, so the page can say whether it is an automated assistant or a person; null while waiting or closed'),
  queue_position: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe("While waiting: the chat's place in its team's queue (1: next), updated live on the stream; null otherwise"),
  approval_pending: z
    .boolean()
    .describe(
      'true while the bot waits for a colleague to approve something in this chat (the page says "Waiting for a colleague to confirm…")',
    ),
});
named('WidgetChat', widgetChatSchema, {
  chat_id: 'c_01hx7',
  status: 'open',
  handled_by: 'bot',
  responder: { kind: 'bot', name: 'Billing bot' },
  queue_position: null,
  approval_pending: false,
});

export type WidgetChat = z.infer<typeof widgetChatSchema>;

/** The `typing` event of the live stream: the VA's typing indicator as the customer sees it. */
export const widgetTypingSchema = z.object({
  on: z.boolean(),
  status_text: z.string().nullable().describe('What the VA says it is doing ("Looking up your order…"), or null'),
  expires_at: isoDateTime.nullable().describe('When it goes off by itself, unless refreshed, cleared or followed by a message'),
  seconds_left: z
    .number()
    .int()
    .min(0)
    .describe('Seconds until `expires_at` as the server counts them (the page times out by it, whatever its clock says)'),
});
named('WidgetTyping', widgetTypingSchema, {
  on: true,
  status_text: 'Looking up your order…',
  expires_at: '2026-05-04T10:15:30.000Z',
  seconds_left: 10,
});

export type WidgetTyping = z.infer<typeof widgetTypingSchema>;

/**
 * The `chunk` event of the live stream: one chunk of a streamed reply, in order, once per
 * connection. `seq` 0 is the text the reply was opened with. The whole message follows as a
 * `message` event with the same `message_id` when the stream ends.
 */
export const widgetChunkSchema = z.object({
  message_id: z.number().int().describe('The `id` the finished message will have'),
  seq: z.number().int().min(0),
  text: z.string(),
});
named('WidgetChunk', widgetChunkSchema, { message_id: 1042, seq: 1, text: 'Your order ' });

export type WidgetChunk = z.infer<typeof widgetChunkSchema>;

export const widgetCurrentChatSchema = z.object({
  // Spelled out, not a `$ref` to WidgetChat: OpenAPI 3.0 can make null and describe a typed schema only.
  chat: withOpenApi(widgetChatSchema.nullable().describe("The customer's latest chat, or null"), { title: undefined }),
});

export const widgetMessagePageSchema = z.object({
  messages: z.array(widgetMessageSchema).describe('Oldest first'),
  more: z.boolean().describe('true: more messages follow; ask again with the last id as `after`'),
});
named('WidgetMessagePage', widgetMessagePageSchema);

const widgetText = () => text().trim().min(1).max(WIDGET_TEXT_MAX);

export const startWidgetChatBodySchema = z
  .object({
    name: nameText().trim().min(1).max(100).optional().describe('How the customer wants to be addressed'),
    text: widgetText().optional().describe('The first message'),
  })
  .strict();
named('StartWidgetChatBody', startWidgetChatBodySchema, { name: 'Dana', text: 'Where is my order A-10442?' });

export type StartWidgetChatBody = z.infer<typeof startWidgetChatBodySchema>;

export const widgetMessageBodySchema = z
  .object({
    text: widgetText().optional(),
    quick_reply_response: z
      .object({
        request_identifier: text().min(1).max(200),
        options: z.array(z.object({ title: text().min(1).max(200) }).strict()).length(1),
      })
      .strict()
      .optional()
      .describe('A click on a quick reply: the offer answered and the title chosen'),
    typing: z
      .boolean()
      .optional()
      .describe(
        'Whether the customer may go on writing after this message (default false). The widget sends true and then, if no key comes within 400 ms, `POST /chats/{chat_id}/typing` with false, which closes a turn window at once; false here closes it after a short grace (TURN_NOT_TYPING_GRACE_MS). A bot with a turn window hears of a burst once the customer stops',
      ),
  })
  .strict();
named('WidgetMessageBody', widgetMessageBodySchema, { text: 'Thanks! When will it arrive?' });

export type WidgetMessageBody = z.infer<typeof widgetMessageBodySchema>;

export const widgetMessagesQuerySchema = z
  .object({
    after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('Only messages after this id'),
  })
  .strict();

/** The customer's typing state, as the widget reports it (`POST /chats/{chat_id}/typing`). */
export const widgetCustomerTypingBodySchema = z
  .object({
    typing: z
      .boolean()
      .describe(
        'true while the customer types (send again every few seconds while they go on; it lapses after 6 s), false when they stop or empty the input (a turn window waiting for them closes at once)',
      ),
  })
  .strict();
named('WidgetCustomerTypingBody', widgetCustomerTypingBodySchema, { typing: true });

export const widgetCustomerTypingSchema = z.object({ typing: z.boolean() });
named('WidgetCustomerTyping', widgetCustomerTypingSchema, { typing: true });
