import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { cursorQuery, envelope, pageSizeQuery, text } from '../common';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders, BODY_CODES, idempotentHeaders } from './common';
import { chunkInputSchema, closeStreamInputSchema, messageInputSchema, messagePageSchema, messageSchema } from './schemas/message';

const c = initContract();

/** `status_labels`: JSON of tool name to status line, as one query parameter. */
const statusLabelsQuery = z
  .string()
  .max(4000)
  .transform((raw, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON: send an object such as {"lookupOrder": "Looking up your order…"}' });
      return z.NEVER;
    }
    const labels = z.record(text().min(1).max(120)).safeParse(parsed);
    if (!labels.success) {
      ctx.addIssue({ code: 'custom', message: 'an object of tool names to status lines of 1-120 characters' });
      return z.NEVER;
    }
    return labels.data;
  })
  .describe(
    'JSON object of tool name to the status line its call shows, e.g. `{"lookupOrder": "Looking up your order…"}` (URL-encoded); a tool not named shows `status_text`',
  );
const chatIdParams = z.object({ chat_id: text().min(1).max(100) });
const messageParams = z.object({ chat_id: text().min(1).max(100), transid: text().min(1).max(100) });

/** A streamed reply, as the chunk and close examples answer it. */
const STREAMED_REPLY = {
  transid: '9d2f7a61-3c4b-4e8f-b1a0-6c5d4e3f2a19',
  type: 'outbound',
  text: 'I found both charges.',
  author: 'va-billing-bot',
  timestamp: '2026-03-02T09:14:12.004Z',
} as const;

export const messagesContract = c.router({
  listMessages: {
    method: 'GET',
    path: '/chats/:chat_id/messages',
    summary: "Read a chat's transcript, oldest first",
    description:
      'Customer messages, replies and announcements of the chat in the order they were sent, `page_size` at a time with `next_cursor`. Unknown query parameters are refused (2001).',
    headers: authHeaders,
    pathParams: chatIdParams,
    query: z.object({ page_size: pageSizeQuery, cursor: cursorQuery }).strict(),
    responses: {
      200: envelope(4305, messagePageSchema),
      ...errors(...AUTH_CODES, 2001, 2014, 2031),
    },
  },
  postMessage: {
    method: 'POST',
    path: '/chats/:chat_id/messages',
    summary: 'Send a message to the customer, add an announcement, or append an inbound message',
    description:
      "`outbound` goes to the customer; `announcement` is visible only to agents and administrators; `inbound` appends a customer message and emits `message.received` to the assigned VA. Fields must suit the chat's channel and the direction (2020 names the offending fields): quick replies only outbound on livechat, quick-reply answers only inbound on livechat, list/time-picker answers only inbound on abc, templates only outbound on abc and messenger, `hsm` only on messenger with `template_name`. A VA sends `outbound` only on a chat assigned to it (2043 otherwise); `inbound` (an integration relaying the customer) and `announcement` stay open. An inbound quick-reply answer sent without the options' `payload` gets them from the chat's offer with the same `request_identifier`. One named example per channel and direction below.",
    headers: idempotentHeaders,
    pathParams: chatIdParams,
    body: messageInputSchema,
    responses: {
      201: envelope(4306, messageSchema),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2013, 2014, 2020, 2031, 2040, 2043),
    },
  },
  appendChunk: {
    method: 'POST',
    path: '/chats/:chat_id/messages/:transid/chunks',
    summary: 'Append a chunk to a streamed reply',
    description:
      'Appends `text` to an open streamed reply (opened by POST /chats/{chat_id}/messages with `"stream": true`) and answers the message as it now stands. `seq` runs from 1 up by one: a chunk already accepted, sent again with the same text, changes nothing and answers 200 (safe to retry); with another text it is 2045; a `seq` past the next one is 2046 (the description names the one expected). The whole text holds up to 4096 characters (2048). A stream that was closed, went idle for STREAM_IDLE_SECONDS or was cut short when the chat left the VA takes no more chunks (2047). Only the VA holding the chat appends (2043). While the stream is open, GET /chats/{chat_id}/messages shows the text so far with `stream_state: open`.',
    headers: authHeaders,
    pathParams: messageParams,
    body: chunkInputSchema,
    responses: {
      200: envelope(4312, messageSchema, { ...STREAMED_REPLY, stream_state: 'open', stream_seq: 1 }),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2014, 2031, 2043, 2044, 2045, 2046, 2047, 2048),
    },
  },
  streamReply: {
    method: 'POST',
    path: '/chats/:chat_id/messages/stream',
    summary: 'Send a reply as one event stream (AI SDK UI message stream or AG-UI events)',
    description:
      "The body is the event stream a language-model framework already produces, sent as it is produced (`content-type: text/event-stream`): the Vercel AI SDK's UI message stream (`result.toUIMessageStreamResponse().body`) or AG-UI's events. The service shows typing (with `status_text`) at once, sends the text deltas (`text-delta`, `TEXT_MESSAGE_CONTENT`) to the customer as one streamed reply, shows a tool call (`tool-input-start`, `TOOL_CALL_START`) as the typing indicator's status line (its label in `status_labels`, else `status_text`), skips reasoning, `data-*`, sources and tool results, and closes the reply at `finish` (`RUN_FINISHED`): the answer is then 201 with the final message. The rules of a reply sent chunk by chunk hold: only the VA holding the chat sends (2043, checked before a byte is read and with every chunk), a handover cuts the reply (2047), the whole text holds up to 4096 characters (2048). The stream's own `error` event (`RUN_ERROR`, 2134), a body ending without `finish` (2132), no byte for STREAM_IDLE_SECONDS or a stream longer than REPLY_STREAM_MAX_SECONDS (2133, 300 s by default) cut the reply short with the text already sent, which the refusal carries as `response.message`. A stream with no text at all sends nothing (2130); an event that is not JSON with a `type` is 2131. One event holds up to MAX_BODY_BYTES; the whole stream up to 8 MiB (2008). Not idempotent: a stream that failed is sent again as a new reply. Unknown query parameters are refused (2001).",
    headers: authHeaders,
    pathParams: chatIdParams,
    query: z
      .object({
        status_text: text()
          .min(1)
          .max(120)
          .optional()
          .describe('The status line shown with typing until the first words (and for a tool call without a label), e.g. "Thinking…"'),
        status_labels: statusLabelsQuery.optional(),
      })
      .strict(),
    body: c.type<AsyncIterable<Uint8Array>>(),
    metadata: { bodyStream: true },
    responses: {
      201: envelope(4306, messageSchema, {
        ...STREAMED_REPLY,
        text: 'Your order 1042 left our warehouse this morning.',
        stream_state: 'closed',
        stream_seq: 6,
      }),
      ...errors(...AUTH_CODES, 2001, 2008, 2009, 2014, 2031, 2040, 2043, 2047, 2048, 2130, 2131, 2132, 2133, 2134),
    },
  },
  closeStream: {
    method: 'PATCH',
    path: '/chats/:chat_id/messages/:transid',
    summary: 'Close a streamed reply',
    description:
      'Closes an open streamed reply and answers the final message (`stream_state: closed`). An optional `text` replaces the whole text (for example after moderation). Closing a stream already closed answers it again unchanged (safe to retry) unless `text` differs; a stream cut short (idle, or the chat left the VA) or a message that is no stream is 2047. Only the VA holding the chat closes it (2043).',
    headers: authHeaders,
    pathParams: messageParams,
    body: closeStreamInputSchema,
    responses: {
      200: envelope(4313, messageSchema, {
        ...STREAMED_REPLY,
        text: 'I found both charges. The second one is being refunded; you will see it within 3 days.',
        stream_state: 'closed',
        stream_seq: 4,
      }),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2014, 2031, 2043, 2044, 2047),
    },
  },
});
