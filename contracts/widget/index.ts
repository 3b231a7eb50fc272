import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope, eventStream, intIdParam, text } from '../common';
import { errors } from '../errors';
import {
  startWidgetChatBodySchema,
  widgetAppSchema,
  widgetChatSchema,
  widgetChunkSchema,
  widgetCurrentChatSchema,
  widgetCustomerTypingBodySchema,
  widgetCustomerTypingSchema,
  widgetMessageBodySchema,
  widgetMessagePageSchema,
  widgetMessageSchema,
  widgetMessagesQuerySchema,
  widgetTypingSchema,
  widgetVisitorSchema,
} from './schemas';

const c = initContract();

export const WIDGET_API_PREFIX = '/api/widget';

const appParams = z.object({ app_id: intIdParam() });
const chatParams = z.object({ chat_id: text().min(1).max(100) });

/** What the live stream sends, as the documents show it. */
const STREAM_EXAMPLE = [
  'retry: 2000',
  '',
  'event: chat',
  'data: {"chat_id":"c_01hx7","status":"open","handled_by":"bot","responder":{"kind":"bot","name":"Billing bot"},"queue_position":null,"approval_pending":false}',
  '',
  'event: typing',
  'data: {"on":true,"status_text":"Looking up your order…","expires_at":"2026-05-04T10:15:30.000Z","seconds_left":10}',
  '',
  'event: chunk',
  'data: {"message_id":1042,"seq":1,"text":"Your order "}',
  '',
  'event: chunk',
  'data: {"message_id":1042,"seq":2,"text":"left today."}',
  '',
  'id: 1042',
  'event: message',
  'data: {"id":1042,"from":"business","text":"Your order left today.","timestamp":"2026-05-04T10:15:24.000Z"}',
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

/**
 * The chat widget's API, used by the customer's page (/chat/<app id>). A customer first gets a
 * credential (`POST /apps/{app_id}/visitors`); every other call sends it as
 * `Authorization: Bearer <token>` and reaches only that customer's chats of that app. The admin
 * session cookie is never read here. Live updates come from `GET /chats/{chat_id}/stream`
 * (Server-Sent Events).
 */
export const widgetContract = c.router(
  {
    getApp: {
      method: 'GET',
      path: '/apps/:app_id',
      summary: 'The chat widget of a livechat asset',
      description:
        "The asset's name (the chat title) and whether it takes new chats. No credential needed. An unknown app, or one that is not a livechat asset, is 2071.",
      pathParams: appParams,
      responses: { 200: envelope(4400, widgetAppSchema), ...errors(2014, 2071, 2012, 2099, 2007) },
    },
    createVisitor: {
      method: 'POST',
      path: '/apps/:app_id/visitors',
      summary: 'A new customer credential for this browser',
      description:
        "Issues a new livechat id (the customer's `destination_id`) and its credential. Keep both in the browser: the same id keeps the conversation across reloads. Counted per client address per hour (2012 beyond). A disabled asset is 2035.",
      pathParams: appParams,
      body: z.object({}).strict().optional(),
      responses: { 201: envelope(4401, widgetVisitorSchema), ...errors(2014, 2071, 2035, 2012, 2099, 2007) },
    },
    currentChat: {
      method: 'GET',
      path: '/chats/current',
      summary: "The customer's latest chat",
      description: "The customer's most recent chat of this app (open or closed), or null: where a reloaded page resumes.",
      responses: { 200: envelope(4400, widgetCurrentChatSchema), ...errors(2070, 2012, 2099, 2007) },
    },
    startChat: {
      method: 'POST',
      path: '/chats',
      summary: 'Start a chat',
      description:
        "Starts a chat on the livechat channel with this customer, optionally with their name and a first message. It enters routing like any other chat (rules, auto-assign, the VA's events). A disabled asset is 2035; messages count per customer per minute (2012 beyond).",
      body: startWidgetChatBodySchema,
      responses: { 201: envelope(4302, widgetChatSchema), ...errors(2000, 2006, 2008, 2009, 2070, 2035, 2012, 2099, 2007) },
    },
    getChat: {
      method: 'GET',
      path: '/chats/:chat_id',
      summary: 'A chat of the customer',
      description: "Whether the chat is open and who answers it (`waiting`, `bot`, `person`). Another customer's chat is not found (2031).",
      pathParams: chatParams,
      responses: { 200: envelope(4304, widgetChatSchema), ...errors(2014, 2070, 2031, 2012, 2099, 2007) },
    },
    listMessages: {
      method: 'GET',
      path: '/chats/:chat_id/messages',
      summary: 'What the customer sees of a chat, oldest first',
      description:
        "The customer's own messages and what was sent to them, after `after` (a message id), 100 at a time. Announcements and internal details never appear. A streamed reply still open is not listed yet: the page ends before it (`more` false) and the live stream sends it.",
      pathParams: chatParams,
      query: widgetMessagesQuerySchema,
      responses: { 200: envelope(4305, widgetMessagePageSchema), ...errors(2001, 2014, 2070, 2031, 2012, 2099, 2007) },
    },
    sendMessage: {
      method: 'POST',
      path: '/chats/:chat_id/messages',
      summary: 'Write to the chat, or answer quick replies',
      description:
        'Text (up to 2000 characters) or the click on a quick reply (`quick_reply_response`, one of the offered titles). A closed chat is 2040; messages count per customer per minute (2012 beyond).',
      pathParams: chatParams,
      body: widgetMessageBodySchema,
      responses: {
        201: envelope(4306, widgetMessageSchema),
        ...errors(2000, 2006, 2008, 2009, 2014, 2065, 2070, 2031, 2040, 2012, 2099, 2007),
      },
    },
    setTyping: {
      method: 'POST',
      path: '/chats/:chat_id/typing',
      summary: 'Say whether the customer is typing',
      description:
        "The widget reports the customer's typing: `true` when they start and every few seconds while they go on, `false` when they stop. The business never sees it as text; a bot with a turn window gets the customer's burst as one turn as soon as they stop (see the guide's page on turns). A closed chat is 2040.",
      pathParams: chatParams,
      body: widgetCustomerTypingBodySchema,
      responses: {
        200: envelope(4400, widgetCustomerTypingSchema),
        ...errors(2000, 2006, 2008, 2009, 2014, 2070, 2031, 2040, 2012, 2099, 2007),
      },
    },
    requestPerson: {
      method: 'POST',
      path: '/chats/:chat_id/person-request',
      summary: '"Talk to a person"',
      description:
        "The customer asks for a person. On a chat a virtual agent answers, the VA's `person_request` setting decides: `fallback` moves the chat to the VA's fallback team (or its team's queue), where the page then shows its place in the queue; `bot` tells the bot (`handover.requested`), which hands over itself. On a chat already waiting for or answered by a person nothing changes. Answers the chat as it now stands. A closed chat is 2040; counted with the customer's messages per minute (2012 beyond).",
      pathParams: chatParams,
      body: z.object({}).strict().optional(),
      responses: { 200: envelope(4304, widgetChatSchema), ...errors(2000, 2006, 2008, 2009, 2014, 2070, 2031, 2040, 2012, 2099, 2007) },
    },
    streamChat: {
      method: 'GET',
      path: '/chats/:chat_id/stream',
      summary: 'Follow the chat live (Server-Sent Events)',
      description:
        "What the customer sees, live: `event: chat` (status, who answers, the place in the queue while waiting, whether an approval is pending) first and on every change; `event: typing` (`WidgetTyping`) when the VA's typing indicator goes on, changes or goes off (one that runs out goes off by `seconds_left`, without an event); `event: chunk` (`WidgetChunk`) for each chunk of a streamed reply while it is open, once per connection and in order; `event: message` (`WidgetMessage`, `id:` its message id) for each message. An open streamed reply holds the messages after it: when it ends (closed by the VA, cut by a handover or by idling) it comes whole as a `message` with the `message_id` its chunks carried, then what followed it. Resume with `Last-Event-ID` or `?after=` (the last message id held): nothing is lost or repeated, and an open reply's chunks come again from its start; a cursor past the chat's newest message was never sent and is refused (2087). A comment line (`: keep-alive`) comes every 25 s. Streams are capped per customer (`WIDGET_STREAMS_PER_CUSTOMER`) and per chat (`WIDGET_STREAMS_PER_CHAT`), counted over every instance: past either, 2066 (429), to retry later. Send the credential as `Authorization: Bearer` (read the stream with fetch; no credential goes in a URL).",
      pathParams: chatParams,
      headers: z.object({
        'last-event-id': text()
          .max(200)
          .optional()
          .describe('The last message `id:` received: the stream resumes after it (instead of `after`)'),
      }),
      query: widgetMessagesQuerySchema,
      responses: {
        200: c.otherResponse({
          contentType: 'text/event-stream',
          body: eventStream(STREAM_EXAMPLE, {
            chat: widgetChatSchema,
            typing: widgetTypingSchema,
            chunk: widgetChunkSchema,
            message: widgetMessageSchema,
          }),
        }),
        ...errors(2001, 2014, 2070, 2031, 2012, 2066, 2087, 2099, 2007, 2051),
      },
    },
  },
  { pathPrefix: WIDGET_API_PREFIX, strictStatusCodes: true },
);
