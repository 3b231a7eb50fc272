import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { cursorQuery, dateTimeInput, decimalInt, envelope, intIdParam, pageSizeQuery, text } from '../common';
import { CHANNELS, CHAT_STATUSES } from '../enums';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders, BODY_CODES, idempotentHeaders } from './common';
import { chatPageSchema, chatSchema, createChatBodySchema, transferBodySchema, updateChatBodySchema } from './schemas/chat';
import { typingInputSchema, typingStateSchema } from './schemas/message';

const c = initContract();
const chatIdParams = z.object({ chat_id: text().min(1).max(100) });

export const chatsContract = c.router({
  createChat: {
    method: 'POST',
    path: '/chats',
    summary: 'Create a chat',
    description:
      'Creates a chat on a channel asset for a customer (found or created by `destination_id`). With `assignee` the chat is assigned at once (a VA then receives `chat.assigned`); with `team_id` it waits in that team; with neither, routing rules choose the team. An asset an administrator has disabled takes no new chats (2035).',
    headers: idempotentHeaders,
    body: createChatBodySchema,
    responses: { 201: envelope(4302, chatSchema), ...errors(...AUTH_CODES, ...BODY_CODES, 2010, 2013, 2020, 2032, 2033, 2034, 2035) },
  },
  listChats: {
    method: 'GET',
    path: '/chats',
    summary: 'List chats, most recently updated first',
    description:
      "Chats of the VA's account, filtered by any of the query parameters (all must hold), newest update first, `page_size` at a time with `next_cursor`. Each chat carries its last message only; read the transcript with GET /chats/{chat_id}/messages. Unknown query parameters are refused (2001).",
    headers: authHeaders,
    query: z
      .object({
        status: z.enum(CHAT_STATUSES).optional(),
        channel: z.enum(CHANNELS).optional(),
        assignee: text().max(200).optional().describe('Login ID of the assignee'),
        tag: text().max(100).optional().describe('Only chats carrying this tag'),
        team_id: intIdParam().optional(),
        updated_since: dateTimeInput().optional().describe('Only chats updated at or after this time'),
        page_size: pageSizeQuery,
        cursor: cursorQuery,
      })
      .strict(),
    responses: {
      200: envelope(4303, chatPageSchema),
      ...errors(...AUTH_CODES, 2001),
    },
  },
  getChat: {
    method: 'GET',
    path: '/chats/:chat_id',
    summary: 'Get a chat',
    description:
      'The chat with its customer, asset, assignee, tags, other details and its latest messages (up to 20, oldest first). A chat of another account is 2031, as an unknown one is.',
    headers: authHeaders,
    pathParams: chatIdParams,
    responses: { 200: envelope(4304, chatSchema), ...errors(...AUTH_CODES, 2014, 2031, 4108) },
  },
  updateChat: {
    method: 'PATCH',
    path: '/chats/:chat_id',
    summary: 'Update a chat: tags, status, assignee, alias, other details',
    description: [
      'Only the fields sent change. `tags` replaces all tags; `add_tags` and `remove_tags` change some of them atomically (the chat is locked while they apply, so two bots adding a tag each keep both), and cannot be sent with `tags` (2017); `other_details` is merged (a null value removes a key). The `team_id` header must name the team the chat is in (2010 when the account has no such team, 2031 when the chat is in another).',
      '',
      'Status and assignment:',
      "- `assignee`: the user takes the chat; status becomes `picked` unless a `status` is sent; the chat moves to the assignee's team when they are not in its team. A VA assignee receives `chat.assigned`.",
      "- `assignee: null` or `status: queued`: the chat returns to its team's queue, unassigned, where auto-assign (if the team has it on) may pick a member at once.",
      '- `status: onhold` / `picked`: the assignee keeps the chat.',
      '- `status: closed` (with an optional `outcome`): the chat closes and its seat is released; the assigned VA receives `chat.closed`. Sending another status reopens a closed chat and clears the outcome; assigning a closed chat requires a status (2040 otherwise).',
      '- When the chat leaves a VA (reassigned, re-queued, or closed by someone else), that VA receives `chat.unassigned` and its waiting events of the chat are superseded; a freed seat is offered to the queue.',
      '',
      'A VA changes only a chat assigned to it (2043 otherwise); it may take an unassigned chat by sending its own login ID as `assignee`.',
      '',
      '`handover` (reason, summary, intent, fields): context for people. With an `assignee` who is a person, or `assignee: null` / `status: queued`, it goes with this handover; otherwise it is kept on the chat for its next handover that brings none (the bot-down fallback, the reply budget, a person taking over, the customer\'s "Talk to a person"). A VA that has handed this chat to people `max_handovers_per_chat` times cannot be given it again (2120).',
    ].join('\n'),
    headers: authHeaders.extend({
      team_id: decimalInt(
        z.number({ invalid_type_error: 'required: the ID of the team the chat is in, as a decimal integer' }).int().positive(),
      ).describe('ID of the team the chat is currently in'),
    }),
    pathParams: chatIdParams,
    body: updateChatBodySchema,
    responses: {
      200: envelope(4304, chatSchema),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2010, 2014, 2017, 2031, 2033, 2040, 2043, 2120, 4108),
    },
  },
  transferChat: {
    method: 'PATCH',
    path: '/internal/chats/:chat_id',
    summary: "Hand a chat over to a team's queue or a skill",
    description:
      "Moves the chat to the team's queue, or to a skill of that team. The chat leaves its assignee. Chats that are `onhold` or `closed` cannot be transferred (2041). To hand over to a specific user, use PATCH /chats/{chat_id} with `assignee`. Transfers are an account setting, on for new accounts, that only the platform administrator changes; while it is off this operation answers 2042. A VA transfers only a chat assigned to it (2043 otherwise); it then receives `chat.unassigned` (reason `transferred`), its waiting events of the chat are superseded, and the transcript records the handover as an announcement. `handover` (reason, summary, intent, fields, up to the documented sizes) is shown to the people who take the chat, never to the customer.",
    headers: authHeaders,
    pathParams: chatIdParams,
    body: transferBodySchema,
    responses: {
      202: envelope(4342, z.literal('')),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2010, 2014, 2031, 2034, 2041, 2042, 2043),
    },
  },
  setTyping: {
    method: 'PUT',
    path: '/chats/:chat_id/typing',
    summary: 'Show or clear the typing indicator, with a working status',
    description:
      '`{"on": true}` shows that the VA is preparing a reply for `ttl_seconds` (1-60, default 10), with an optional `status_text` (up to 120 characters, such as "Looking up your order…"); sending it again refreshes it. `{"on": false}` clears it (`ttl_seconds` and `status_text` go with `on: true` only, 2000). It also goes off by itself at `expires_at`, with the VA\'s next outbound message, and when the chat is transferred, closed or otherwise leaves the VA. While it is on, GET /chats/{chat_id} shows it as `typing`, and it pauses the VA\'s reply budget. `shown_to_customer` is true on livechat, the one channel that shows typing to the customer; elsewhere agents and administrators see it. Only the VA holding the chat sets it (2043); a closed chat is 2040.',
    headers: authHeaders,
    pathParams: chatIdParams,
    body: typingInputSchema,
    responses: {
      200: envelope(4311, typingStateSchema),
      ...errors(...AUTH_CODES, ...BODY_CODES, 2014, 2031, 2040, 2043),
    },
  },
});
