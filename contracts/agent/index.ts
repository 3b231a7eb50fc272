import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { messageSchema } from '../bot/schemas/message';
import { envelope, text } from '../common';
import { errors } from '../errors';
import {
  acceptInviteBodySchema,
  agentChatSchema,
  agentCloseBodySchema,
  agentDirectorySchema,
  agentLoginBodySchema,
  agentNoteBodySchema,
  agentProfileSchema,
  agentReplyBodySchema,
  agentTagsBodySchema,
  agentTransferBodySchema,
  setAvailabilityBodySchema,
  workspaceListsSchema,
} from './schemas';

const c = initContract();

export const AGENT_API_PREFIX = '/api/agent';

/** Every signed-in route: no or expired session, over the session's budget, wrong method, unexpected failure. */
const READ = [2080, 2012, 2099, 2007] as const;
/** A route that changes something: also refused when sent cross-site, and the body's problems. */
const WRITE = [...READ, 3003, 2000, 2006, 2008, 2009] as const;
const CHAT_READ = [...READ, 2085] as const;
const CHAT_WRITE = [...WRITE, 2085, 2086, 2040] as const;
const SIGN_IN = [3003, 2000, 2006, 2008, 2009, 2012, 2099, 2007] as const;
const LOGIN = [...SIGN_IN, 2081] as const;
const ACCEPT = [...SIGN_IN, 2082, 3009] as const;
const PICK = [...WRITE, 2085, 2083, 2084, 2040] as const;
const TRANSFER = [...CHAT_WRITE, 2010, 2033, 2034, 2041] as const;

const chatParams = z.object({ chat_id: text().min(1).max(100) });

/**
 * The agent workspace's API (/agent): people (users of kind agent or manager) sign in with the
 * `va_agent_session` cookie and work their teams' chats. Live changes come from `GET /stream`
 * (Server-Sent Events, outside this contract).
 */
export const agentContract = c.router(
  {
    login: {
      method: 'POST',
      path: '/login',
      summary: 'Sign in to the workspace',
      body: agentLoginBodySchema,
      responses: { 200: envelope(4400, agentProfileSchema), ...errors(...LOGIN) },
    },
    acceptInvite: {
      method: 'POST',
      path: '/invite/accept',
      summary: 'Set the password from an invite link and sign in',
      body: acceptInviteBodySchema,
      responses: { 200: envelope(4400, agentProfileSchema), ...errors(...ACCEPT) },
    },
    logout: {
      method: 'POST',
      path: '/logout',
      summary: 'Sign out',
      body: c.noBody(),
      responses: { 200: envelope(4400, z.null()), ...errors(...READ, 3003) },
    },
    me: {
      method: 'GET',
      path: '/me',
      summary: 'The signed-in person, their teams and availability',
      responses: { 200: envelope(4400, agentProfileSchema), ...errors(...READ) },
    },
    setAvailability: {
      method: 'PUT',
      path: '/availability',
      summary: 'Set availability (available or away)',
      body: setAvailabilityBodySchema,
      responses: { 200: envelope(4400, agentProfileSchema), ...errors(...WRITE) },
    },
    directory: {
      method: 'GET',
      path: '/directory',
      summary: 'Where chats can be transferred: teams with their skills, people and virtual agents',
      responses: { 200: envelope(4400, agentDirectorySchema), ...errors(...READ) },
    },
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
  },
  { pathPrefix: AGENT_API_PREFIX, strictStatusCodes: true },
);
