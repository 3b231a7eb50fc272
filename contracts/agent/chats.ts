import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { messageSchema } from '../bot/schemas/message';
import { envelope } from '../common';
import { errors } from '../errors';
import { CHAT_READ, CHAT_WRITE, chatParams, PICK, READ, TRANSFER } from './common';
import {
  agentChatSchema,
  agentCloseBodySchema,
  agentNoteBodySchema,
  agentReplyBodySchema,
  agentTagsBodySchema,
  agentTransferBodySchema,
  workspaceListsSchema,
} from './schemas';

const c = initContract();

/** The chats of the person's teams: the lists, a chat, and what a person does in one. */
export const chatsContract = c.router({
  lists: {
    method: 'GET',
    path: '/chats',
    summary: "Mine (chats assigned to me) and Queue (my teams' waiting chats, oldest first)",
    responses: { 200: envelope(4400, workspaceListsSchema), ...errors(...READ) },
  },
  getChat: {
    method: 'GET',
    path: '/chats/:chat_id',
    summary: 'A chat of my teams with its transcript',
    pathParams: chatParams,
    responses: { 200: envelope(4400, agentChatSchema), ...errors(...CHAT_READ) },
  },
  pick: {
    method: 'POST',
    path: '/chats/:chat_id/pick',
    summary: 'Take the chat (from the queue, or from a virtual agent)',
    pathParams: chatParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, agentChatSchema), ...errors(...PICK) },
  },
  reply: {
    method: 'POST',
    path: '/chats/:chat_id/reply',
    summary: 'Answer the customer',
    pathParams: chatParams,
    body: agentReplyBodySchema,
    responses: { 201: envelope(4306, messageSchema), ...errors(...CHAT_WRITE, 2020) },
  },
  note: {
    method: 'POST',
    path: '/chats/:chat_id/notes',
    summary: 'Add an internal note (never sent to the customer or a bot as customer text)',
    pathParams: chatParams,
    body: agentNoteBodySchema,
    responses: { 201: envelope(4306, messageSchema), ...errors(...CHAT_WRITE) },
  },
  tags: {
    method: 'PATCH',
    path: '/chats/:chat_id/tags',
    summary: 'Add or remove tags',
    pathParams: chatParams,
    body: agentTagsBodySchema,
    responses: { 200: envelope(4400, agentChatSchema), ...errors(...CHAT_WRITE, 2017) },
  },
  transfer: {
    method: 'POST',
    path: '/chats/:chat_id/transfer',
    summary: 'Transfer to a team, a skill, a person, or back to a virtual agent',
    pathParams: chatParams,
    body: agentTransferBodySchema,
    responses: { 200: envelope(4400, z.null()), ...errors(...TRANSFER) },
  },
  close: {
    method: 'POST',
    path: '/chats/:chat_id/close',
    summary: 'Close the chat',
    pathParams: chatParams,
    body: agentCloseBodySchema,
    responses: { 200: envelope(4400, z.null()), ...errors(...CHAT_WRITE) },
  },
});
