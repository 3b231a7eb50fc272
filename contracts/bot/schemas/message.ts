import { z } from 'zod';
import { dateTimeInput, isoDateTime, named, SAFE_TEXT_MESSAGE, safePattern, text } from '../../common';
import { ATTACHMENT_TYPES, MESSAGE_TYPES, STREAM_STATES } from '../../enums';

export const attachmentSchema = z
  .object({
    type: z.enum(ATTACHMENT_TYPES),
    url: z
      .string()
      .url()
      .max(2048)
      // Every `%` starts an escape of two hex digits: a page that decodes the name must not fail on it.
      .regex(
        safePattern('[hH][tT][tT][pP][sS]?://(?:[^%]|%[0-9a-fA-F]{2})*'),
        `must be an http or https URL whose every % starts a %XX escape; ${SAFE_TEXT_MESSAGE}`,
      )
      .describe('Hosted URL of the attachment: `http` or `https` only; every `%` starts a `%XX` escape'),
  })
  .strict();
named('Attachment', attachmentSchema);

const quickRepliesSchema = z
  .object({
    request_identifier: text().min(1).max(200).describe('Identifies the request, preferably a GUID'),
    options: z
      .array(z.object({ title: text().min(1).max(200), payload: text().max(1000) }).strict())
      .min(1)
      .max(13),
  })
  .strict()
  .describe('Quick replies offered to the customer (livechat, outbound only)');
named('QuickReplies', quickRepliesSchema);

const quickReplyResponseSchema = z
  .object({
    request_identifier: text().min(1).max(200).describe('The `request_identifier` of the offer answered'),
    options: z
      .array(
        z
          .object({
            title: text().min(1).max(200),
            payload: text()
              .max(1000)
              .optional()
              .describe(
                "The chosen option's payload. Left out, the service fills it from the offer (the outbound `quick_replies` of the chat with the same `request_identifier`, matched by title)",
              ),
          })
          .strict(),
      )
      .min(1)
      .max(13),
  })
  .strict()
  .describe("The customer's answer to quick replies (livechat, inbound only)");
named('QuickReplyResponse', quickReplyResponseSchema);

const wabInteractiveResponseSchema = z
  .object({
    identifier: z.string().uuid().describe('Identifier of the template button the customer chose'),
    title: text().min(1).max(200).describe('Title of that button'),
  })
  .strict()
  .describe("The customer's answer to an interactive template (messenger, inbound only)");

const listPicker = z.array(text().min(1).max(200)).min(1).max(50);

/**
 * A message as a bot sends it. Structure and types are checked here; which fields are allowed
 * for the chat's channel and the message's direction is checked against the chat (code 2020).
 * The spec's sample spellings are accepted as aliases: `listpicker_response`, `timepicker_response`,
 * sub types `listpicker_response`/`timepicker_response` (abc) and `quick_replies` (livechat).
 */
export const messageInputSchema = z
  .object({
    type: z
      .enum(MESSAGE_TYPES)
      .describe('`inbound` (from the customer), `outbound` (to the customer) or `announcement` (agents and admins only)'),
    text: text().min(1).max(4096).optional(),
    attachment: attachmentSchema.optional(),
    abc_sub_type: z.enum(['text', 'listpicker', 'timepicker', 'listpicker_response', 'timepicker_response']).optional(),
    livechat_sub_type: z.enum(['text', 'quick_replies', 'quick_reply_response']).optional(),
    messenger_sub_type: z.enum(['text', 'hsm']).optional(),
    list_picker_response: listPicker.optional().describe('Item titles chosen on abc (inbound)'),
    listpicker_response: listPicker.optional().describe('Alias of `list_picker_response`'),
    time_picker_response: dateTimeInput().optional().describe('Start of the slot chosen on abc (inbound)'),
    timepicker_response: dateTimeInput().optional().describe('Alias of `time_picker_response`'),
    template_name: text().min(1).max(200).optional().describe('Outbound template (abc, messenger)'),
    quick_replies: quickRepliesSchema.optional(),
    quick_reply_response: quickReplyResponseSchema.optional(),
    wab_interactive_response: wabInteractiveResponseSchema.optional(),
    timestamp: dateTimeInput().optional().describe('When the message was sent or received; defaults to now'),
    stream: z
      .boolean()
      .optional()
      .describe(
        'Outbound text only: `true` opens a streamed reply (`stream_state: open`); `text` is then optional and may be the first words. Append with POST /chats/{chat_id}/messages/{transid}/chunks and close with PATCH /chats/{chat_id}/messages/{transid}',
      ),
    in_reply_to_turn: text()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "Outbound only: the `turn_id` of the `message.received` this reply answers. A turn that is no longer the chat's latest (the customer wrote since) is refused with 2100 when the VA's `on_new_turn` is `supersede`, and accepted with `stale: true` with `continue`",
      ),
  })
  .strict();
named('MessageInput', messageInputSchema);

export type MessageInput = z.infer<typeof messageInputSchema>;

/** A stored message, as the API returns it (aliases resolved to the spec's field names). */
export const messageSchema = z.object({
  transid: z.string().describe('Unique trace of the message; keep it for support'),
  type: z.enum(MESSAGE_TYPES),
  text: z.string().optional(),
  attachment: attachmentSchema.optional(),
  abc_sub_type: z.enum(['text', 'listpicker', 'timepicker']).optional(),
  livechat_sub_type: z.enum(['text', 'quick_replies', 'quick_reply_response']).optional(),
  messenger_sub_type: z.enum(['text', 'hsm']).optional(),
  list_picker_response: z.array(z.string()).optional(),
  time_picker_response: isoDateTime.optional(),
  template_name: z.string().optional(),
  quick_replies: quickRepliesSchema.optional(),
  quick_reply_response: quickReplyResponseSchema.optional(),
  wab_interactive_response: wabInteractiveResponseSchema.optional(),
  author: z.string().nullable().describe('Login ID of the user who wrote it; null for the customer'),
  timestamp: isoDateTime,
  stream_state: z
    .enum(STREAM_STATES)
    .optional()
    .describe(
      'Streamed replies only: `open` while chunks are appended (`text` is what has arrived so far), `closed` once the VA closed it, `cut_short` when it was closed for the VA (no chunk for STREAM_IDLE_SECONDS, or the chat left the VA) with the text it held, `superseded` when the customer started a new turn (with `on_new_turn: supersede`) or a person took the chat over: the customer no longer sees it as an answer',
    ),
  stream_seq: z.number().int().optional().describe('Streamed replies only: the `seq` of the last chunk accepted (0 before the first)'),
  turn_id: z.string().optional().describe("Inbound: the customer's turn the message is part of (see the guide's page on turns)"),
  in_reply_to_turn: z.string().optional().describe('Outbound: the turn the reply said it answers'),
  stale: z
    .boolean()
    .optional()
    .describe("Outbound with `in_reply_to_turn`: true when that turn was no longer the chat's latest as the reply arrived"),
});
/** Examples of messages in the documents (a chat's, an event's). */
export const INBOUND_MESSAGE_EXAMPLE = {
  transid: '0b8e5cf2-5b0d-4d87-9f43-2a3c8f0f6a11',
  type: 'inbound',
  text: 'Hi, I was charged twice for order A-10442',
  livechat_sub_type: 'text',
  author: null,
  timestamp: '2026-03-02T09:14:07.120Z',
} satisfies Message;
/** The quick replies of the examples (a livechat offer and the answers that name its options). */
export const EXAMPLE_QUICK_REPLIES = {
  request_identifier: '3f2b8c1e-6d4a-4e9b-9c7f-1a2b3c4d5e6f',
  options: [
    { title: 'Card', payload: 'pay_card' },
    { title: 'Bank transfer', payload: 'pay_bank' },
  ],
};
export const OUTBOUND_MESSAGE_EXAMPLE = {
  transid: 'e4a1d3c0-8f5e-4b61-a7c2-55d9e6b0c3f4',
  type: 'outbound',
  text: 'Sorry about that! How did you pay?',
  livechat_sub_type: 'quick_replies',
  quick_replies: EXAMPLE_QUICK_REPLIES,
  author: 'va-billing-bot',
  timestamp: '2026-03-02T09:14:09.482Z',
} satisfies Message;
named('Message', messageSchema, OUTBOUND_MESSAGE_EXAMPLE);

export type Message = z.infer<typeof messageSchema>;

/** A chunk of an open streamed reply, as the people's live views (workspace, console) send it. */
export const transcriptChunkSchema = z.object({
  transid: z.string().describe('The streamed reply it belongs to; append it when the reply held has `stream_seq` one less'),
  seq: z.number().int().min(0),
  text: z.string(),
});
named('TranscriptChunk', transcriptChunkSchema, { transid: 'f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c', seq: 2, text: 'both charges.' });

export type TranscriptChunk = z.infer<typeof transcriptChunkSchema>;

/** One piece of a streamed reply, appended to its text. */
export const chunkInputSchema = z
  .object({
    seq: z
      .number()
      .int()
      .min(1)
      .max(4096)
      .describe(
        'Position of the chunk, from 1 up by one. A chunk already accepted sent again with the same text changes nothing (retry-safe); with another text it is 2045; a seq past the next one is 2046',
      ),
    text: text().min(1).max(4096).describe('Text appended to the message; the whole text holds up to 4096 characters (2048)'),
  })
  .strict();
named('ChunkInput', chunkInputSchema, { seq: 1, text: 'I found both charges.' });

export const closeStreamInputSchema = z
  .object({
    stream_state: z.literal('closed').describe('Closes the streamed reply'),
    text: text()
      .min(1)
      .max(4096)
      .optional()
      .describe('Replaces the whole text (for example after moderation); left out, the text is what the chunks built'),
  })
  .strict();
named('CloseStreamInput', closeStreamInputSchema, { stream_state: 'closed' });

export const typingInputSchema = z
  .object({
    on: z.boolean().describe('`true` shows (or refreshes) the indicator, `false` clears it'),
    ttl_seconds: z
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .describe('With `on: true`: seconds it stays on unless refreshed (1-60, default 10)'),
    status_text: text()
      .min(1)
      .max(120)
      .optional()
      .describe('With `on: true`: a working status shown with it, such as "Looking up your order…" (up to 120 characters)'),
  })
  .strict();
named('TypingInput', typingInputSchema, { on: true, ttl_seconds: 10, status_text: 'Looking up your order…' });

export type TypingInput = z.infer<typeof typingInputSchema>;

export const typingStateSchema = z.object({
  on: z.boolean(),
  expires_at: isoDateTime.nullable().describe('When the indicator goes off by itself; null when off'),
  status_text: z.string().nullable(),
  shown_to_customer: z
    .boolean()
    .describe(
      'Whether the channel shows typing to the customer: true on livechat only; on other channels it is kept and shown to agents only',
    ),
});
named('TypingState', typingStateSchema, {
  on: true,
  expires_at: '2026-03-02T09:14:20.000Z',
  status_text: 'Looking up your order…',
  shown_to_customer: true,
});

export const messagePageSchema = z.object({
  messages: z.array(messageSchema),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
named('MessagePage', messagePageSchema);
