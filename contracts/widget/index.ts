import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { meta } from '../bot/common';
import { envelope, errorEnvelopeSchema, intIdParam, text } from '../schemas/common';
import {
  startWidgetChatBodySchema,
  widgetAppSchema,
  widgetChatSchema,
  widgetCurrentChatSchema,
  widgetMessageBodySchema,
  widgetMessagePageSchema,
  widgetMessageSchema,
  widgetMessagesQuerySchema,
  widgetVisitorSchema,
} from '../schemas/widget';

const c = initContract();

export const WIDGET_API_PREFIX = '/api/widget';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  405: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  415: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  500: errorEnvelopeSchema,
} as const;

const appParams = z.object({ app_id: intIdParam() });
const chatParams = z.object({ chat_id: text().min(1).max(100) });

/**
 * The chat widget's API, used by the customer's page (/chat/<app id>). A customer first gets a
 * credential (`POST /apps/{app_id}/visitors`); every other call sends it as
 * `Authorization: Bearer <token>` and reaches only that customer's chats of that app. The admin
 * session cookie is never read here. Live updates come from `GET /chats/{chat_id}/stream`
 * (Server-Sent Events, outside this contract).
 */
export const widgetContract = c.router(
  {
    getApp: {
      method: 'GET',
      path: '/apps/:app_id',
      summary: 'The chat widget of a livechat asset',
      pathParams: appParams,
      responses: { 200: envelope(4400, widgetAppSchema), ...errors },
      metadata: meta(2014, 2071, 2012, 2099, 2007),
    },
    createVisitor: {
      method: 'POST',
      path: '/apps/:app_id/visitors',
      summary: 'A new customer credential for this browser',
      pathParams: appParams,
      body: z.object({}).strict().optional(),
      responses: { 201: envelope(4401, widgetVisitorSchema), ...errors },
      metadata: meta(2014, 2071, 2035, 2012, 2099, 2007),
    },
    currentChat: {
      method: 'GET',
      path: '/chats/current',
      summary: "The customer's latest chat",
      responses: { 200: envelope(4400, widgetCurrentChatSchema), ...errors },
      metadata: meta(2070, 2012, 2099, 2007),
    },
    startChat: {
      method: 'POST',
      path: '/chats',
      summary: 'Start a chat',
      body: startWidgetChatBodySchema,
      responses: { 201: envelope(4302, widgetChatSchema), ...errors },
      metadata: meta(2000, 2006, 2008, 2009, 2070, 2035, 2012, 2099, 2007),
    },
    getChat: {
      method: 'GET',
      path: '/chats/:chat_id',
      summary: 'A chat of the customer',
      pathParams: chatParams,
      responses: { 200: envelope(4304, widgetChatSchema), ...errors },
      metadata: meta(2014, 2070, 2031, 2012, 2099, 2007),
    },
    listMessages: {
      method: 'GET',
      path: '/chats/:chat_id/messages',
      summary: 'What the customer sees of a chat, oldest first',
      pathParams: chatParams,
      query: widgetMessagesQuerySchema,
      responses: { 200: envelope(4305, widgetMessagePageSchema), ...errors },
      metadata: meta(2001, 2014, 2070, 2031, 2012, 2099, 2007),
    },
    sendMessage: {
      method: 'POST',
      path: '/chats/:chat_id/messages',
      summary: 'Write to the chat, or answer quick replies',
      pathParams: chatParams,
      body: widgetMessageBodySchema,
      responses: { 201: envelope(4306, widgetMessageSchema), ...errors },
      metadata: meta(2000, 2006, 2008, 2009, 2014, 2070, 2031, 2040, 2012, 2099, 2007),
    },
  },
  { pathPrefix: WIDGET_API_PREFIX, strictStatusCodes: true },
);
