import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { chatPageSchema } from '../bot/schemas/chat';
import { INBOUND_MESSAGE_EXAMPLE, messageSchema } from '../bot/schemas/message';
import { envelope, text } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import { adminChatDetailSchema, adminMessageBodySchema, listAdminChatsQuerySchema } from './schemas/chat';

const c = initContract();
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
