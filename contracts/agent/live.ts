import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { messageSchema, transcriptChunkSchema } from '../bot/schemas/message';
import { eventStream, text } from '../common';
import { errors } from '../errors';
import { READ } from './common';
import { agentChatDetailsSchema, agentChatSchema, workspaceListsSchema } from './schemas';

const c = initContract();

const STREAM_EXAMPLE = [
  'retry: 2000',
  '',
  'event: lists',
  'data: {"queue":[],"mine":[],"approvals":[]}',
  '',
  'id: 1041',
  'event: chat',
  'data: {"chat":{"chat_id":"c_01hx7"},"assignee_kind":"virtual_agent","handover":null,"approvals":[],"transcript":[]}',
  '',
  'event: message',
  'data: {"transid":"f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c","type":"outbound","text":"","stream_state":"open","stream_seq":0}',
  '',
  'event: chunk',
  'data: {"transid":"f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c","seq":1,"text":"I found "}',
  '',
].join('\n');

/** The workspace's live view: one Server-Sent Events stream per page. */
export const liveContract = c.router({
  stream: {
    method: 'GET',
    path: '/stream',
    summary: 'Follow the lists and the open chat live (Server-Sent Events)',
    description:
      "`event: lists` (as GET /chats answers) first and whenever the queue, Mine or the approvals change. With `chat`, that chat's changes themselves, never a ping to read it again: `event: chat` first (the whole chat as GET /chats/{chat_id} answers it; its `id:` is the stream's cursor), then `event: message` (a new or changed message; replace the one with its `transid` or append it), `event: chunk` (`TranscriptChunk`: append `text` to the streamed reply `transid` when the one held has `stream_seq` one less), `event: details` (the chat without its transcript) when they change, and `event: gone` once if the chat leaves the person's teams. Resume with `Last-Event-ID` (EventSource sends it): no `chat`; the messages after that cursor come again, an open reply whole, so nothing is lost and a repeat replaces what the page holds; a cursor past the chat's newest message was never sent and is refused (2087). A comment line (`: keep-alive`) comes every 25 s. The session cookie is required.",
    query: z.object({ chat: text().min(1).max(100).optional().describe('The chat the page has open') }),
    headers: z.object({
      'last-event-id': z
        .string()
        .regex(/^[0-9]{1,15}$/, 'must be an id this stream sent')
        .optional()
        .describe('The last `id:` received: the open chat resumes after it'),
    }),
    responses: {
      200: c.otherResponse({
        contentType: 'text/event-stream',
        body: eventStream(STREAM_EXAMPLE, {
          lists: workspaceListsSchema,
          chat: agentChatSchema,
          message: messageSchema,
          chunk: transcriptChunkSchema,
          details: agentChatDetailsSchema,
          gone: z.object({ chat_id: z.string() }),
        }),
      }),
      ...errors(...READ, 2001, 2002, 2085, 2087, 2051),
    },
  },
});
