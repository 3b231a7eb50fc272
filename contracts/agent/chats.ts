import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { approvalSchema, decideApprovalBodySchema } from '../bot/schemas/approval';
import { messageSchema } from '../bot/schemas/message';
import { envelope, text } from '../common';
import { errors } from '../errors';
import { CHAT_READ, CHAT_WRITE, chatParams, PICK, READ, TRANSFER, WRITE } from './common';
import {
  agentChatSchema,
  agentCloseBodySchema,
  agentDisplayNameBodySchema,
  agentHandBackBodySchema,
  agentNoteBodySchema,
  agentProfileSchema,
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
  handBack: {
    method: 'POST',
    path: '/chats/:chat_id/hand-back',
    summary: 'Hand the chat back to the virtual agent, with an optional note for it',
    description:
      'To the virtual agent that handed the chat over last (or `assignee`). Its chat.assigned carries the note and what was said while people held the chat. Refused with 2120 once that agent has handed this chat to people `max_handovers_per_chat` times: the chat stays with people.',
    pathParams: chatParams,
    body: agentHandBackBodySchema,
    responses: { 200: envelope(4400, z.null()), ...errors(...CHAT_WRITE, 2033, 2120, 2124) },
  },
  decideApproval: {
    method: 'POST',
    path: '/approvals/:approval_id/decision',
    summary: "Approve or reject a virtual agent's request, with a comment and the editable details changed",
    pathParams: z.object({ approval_id: text().min(1).max(100) }),
    body: decideApprovalBodySchema,
    responses: { 200: envelope(4400, approvalSchema), ...errors(...WRITE, 2121, 2122, 2123) },
  },
  setDisplayName: {
    method: 'PUT',
    path: '/display-name',
    summary: 'Choose the name customers see on your replies',
    body: agentDisplayNameBodySchema,
    responses: { 200: envelope(4400, agentProfileSchema), ...errors(...WRITE) },
  },
});
