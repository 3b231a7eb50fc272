import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { chatPageSchema } from '../bot/schemas/chat';
import { INBOUND_MESSAGE_EXAMPLE, messageSchema, transcriptChunkSchema } from '../bot/schemas/message';
import { envelope, eventStream, text } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import { adminChatDetailSchema, adminChatDetailsSchema, adminMessageBodySchema, listAdminChatsQuerySchema } from './schemas/chat';

const c = initContract();
const STREAM_EXAMPLE = [
  'retry: 2000',
  '',
  'id: 1041',
  'event: chat',
  'data: {"chat_id":"c_01hx7","status":"open","messages":[],"events":[],"handover":null,"approvals":[]}',
  '',
  'event: chunk',
  'data: {"transid":"f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c","seq":1,"text":"I found "}',
  '',
].join('\n');
const chatIdParams = z.object({ chat_id: text().min(1).max(100) });

const LIST_CODES = [...READ_CODES, 2001] as const;
const GET_CODES = [...READ_CODES, 2014, 3006] as const;
const POST_CODES = [...WRITE_CODES, 2014, 2020, 2040, 3006] as const;

export const chatsContract = c.router({
  listChats: {
    method: 'GET',
    path: '/chats',
    summary: 'Search chats, most recently updated first',
    description:
      'Chats of the account filtered by any of the query parameters (all must hold); `q` matches the chat ID (or its start), alias ID, customer destination ID or name. Unknown query parameters are refused (2001).',
    query: listAdminChatsQuerySchema,
    responses: {
      200: envelope(4400, chatPageSchema),
      ...errors(...LIST_CODES),
    },
  },
  getChat: {
    method: 'GET',
    path: '/chats/:chat_id',
    summary: 'Get a chat with its whole transcript, its events and every delivery attempt',
    description:
      'Everything about one chat for support: the chat, every message (announcements included), every event sent to a VA about it and each delivery attempt of those events.',
    pathParams: chatIdParams,
    responses: { 200: envelope(4400, adminChatDetailSchema), ...errors(...GET_CODES) },
  },
  streamChat: {
    method: 'GET',
    path: '/chats/:chat_id/stream',
    summary: 'Follow one chat live (Server-Sent Events), for the chat page',
    description:
      "The chat's changes themselves, never a ping to read it again: `event: chat` first (the whole answer of GET /chats/{chat_id}; its `id:` is the stream's cursor), then `event: message` (a new or changed message, announcements included; replace the one with its `transid` or append it), `event: chunk` (`TranscriptChunk`: append `text` to the streamed reply `transid` when the one held has `stream_seq` one less) and `event: details` (the answer without its transcript: the chat's facts, events with their delivery attempts, handover, approvals) when they change. Resume with `Last-Event-ID` (EventSource sends it): no `chat`; the messages after that cursor come again, an open reply whole, so nothing is lost and a repeat replaces what the page holds; a cursor past the chat's newest message was never sent and is refused (2087). A comment line (`: keep-alive`) comes every 25 s. The admin session cookie is required.",
    pathParams: chatIdParams,
    headers: z.object({
      'last-event-id': z
        .string()
        .regex(/^[0-9]{1,15}$/, 'must be an id this stream sent')
        .optional()
        .describe('The last `id:` received: the stream resumes after it'),
    }),
    responses: {
      200: c.otherResponse({
        contentType: 'text/event-stream',
        body: eventStream(STREAM_EXAMPLE, {
          chat: adminChatDetailSchema,
          message: messageSchema,
          chunk: transcriptChunkSchema,
          details: adminChatDetailsSchema,
        }),
      }),
      ...errors(...GET_CODES, 2002, 2087, 2051),
    },
  },
  postMessage: {
    method: 'POST',
    path: '/chats/:chat_id/messages',
    summary: 'Append a message as the customer, or an announcement',
    description:
      "`inbound` is stored as if the customer wrote it and emits `message.received` to an assigned VA (handy to test a bot); `announcement` is a note visible to agents and admins, written by `admin:<email>`. Fields must suit the chat's channel (2020). A closed chat takes announcements only (2040).",
    pathParams: chatIdParams,
    body: adminMessageBodySchema,
    responses: { 201: envelope(4401, messageSchema, INBOUND_MESSAGE_EXAMPLE), ...errors(...POST_CODES) },
  },
});
