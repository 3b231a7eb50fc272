import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { cursorQuery, envelope, errorEnvelopeSchema, pageSizeQuery, text } from '../schemas/common';
import { messageInputSchema, messagePageSchema, messageSchema } from '../schemas/message';
import { AUTH_CODES, authErrors, authHeaders, BODY_CODES, bodyErrors, idempotentHeaders, meta } from './common';

const c = initContract();
const chatIdParams = z.object({ chat_id: text().min(1).max(100) });

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
      404: errorEnvelopeSchema,
      ...authErrors,
    },
    metadata: meta(...AUTH_CODES, 2001, 2014, 2031),
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
      403: errorEnvelopeSchema,
      404: errorEnvelopeSchema,
      409: errorEnvelopeSchema,
      ...authErrors,
      ...bodyErrors,
    },
    metadata: meta(...AUTH_CODES, ...BODY_CODES, 2013, 2014, 2020, 2031, 2040, 2043),
  },
});
