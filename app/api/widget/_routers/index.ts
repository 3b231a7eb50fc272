import { tsr } from '@ts-rest/serverless/next';
import { widgetContract } from '@/contracts/widget';
import { getDb } from '@/db/client';
import { setCustomerTyping } from '@/lib/chats/set-customer-typing';
import { createVisitor } from '@/lib/widget/create-visitor';
import { findCurrentChat } from '@/lib/widget/find-current-chat';
import { getWidgetApp } from '@/lib/widget/get-widget-app';
import { listWidgetMessages } from '@/lib/widget/list-widget-messages';
import { openWidgetStream } from '@/lib/widget/open-widget-stream';
import { requestPerson } from '@/lib/widget/request-person';
import { sendWidgetMessage } from '@/lib/widget/send-widget-message';
import { startWidgetChat } from '@/lib/widget/start-widget-chat';
import { loadOwnChat } from '@/lib/widget/widget-chat-view';
import { widgetGuard } from '@/lib/widget/widget-guard';
import { ApiError } from '@/platform/errors';
import { createApiHandler } from '@/platform/http/create-api-handler';
import type { WidgetVisitorAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';
import { withStreamSeat } from '@/platform/realtime/stream-seats';

const widgetRouter = tsr.routerWithMiddleware(widgetContract)<{ widget: WidgetVisitorAuth }>({
  getApp: async ({ params }) => ok(4400, await getWidgetApp(await getDb(), { appId: params.app_id })),
  createVisitor: async ({ params }) => ok(4401, await createVisitor(await getDb(), { appId: params.app_id })),
  currentChat: async (_, { request }) => ok(4400, { chat: await findCurrentChat(await getDb(), { visitor: request.widget }) }),
  startChat: async ({ body }, { request }) => ok(4302, await startWidgetChat(await getDb(), { visitor: request.widget, body })),
  getChat: async ({ params }, { request }) =>
    ok(4304, await loadOwnChat(await getDb(), { visitor: request.widget, chatId: params.chat_id })),
  listMessages: async ({ params, query }, { request }) =>
    ok(4305, await listWidgetMessages(await getDb(), { visitor: request.widget, chatId: params.chat_id, after: query.after })),
  sendMessage: async ({ params, body }, { request }) =>
    ok(4306, await sendWidgetMessage(await getDb(), { visitor: request.widget, chatId: params.chat_id, body })),
  setTyping: async ({ params, body }, { request }) => {
    await loadOwnChat(await getDb(), { visitor: request.widget, chatId: params.chat_id });
    return ok(
      4400,
      await setCustomerTyping(await getDb(), { accountId: request.widget.accountId, chatId: params.chat_id, typing: body.typing }),
    );
  },
  requestPerson: async ({ params }, { request }) =>
    ok(4304, await requestPerson(await getDb(), { visitor: request.widget, chatId: params.chat_id })),
  streamChat: async ({ params, query, headers }, { request }) => {
    const resume = headers['last-event-id'];
    const after = resume !== undefined ? cursorOf(resume, 'header.last-event-id') : (query.after ?? 0);
    const stream = await withStreamSeat(async () =>
      openWidgetStream(await getDb(), { visitor: request.widget, chatId: params.chat_id, after }),
    );
    // An EventStream body is streamed by both entries (platform/http); the contract documents it as text/event-stream.
    return { status: 200 as const, body: stream };
  },
});

/** `Last-Event-ID` as a message id (2001 otherwise). */
function cursorOf(value: string, field: string): number {
  if (!/^[0-9]{1,15}$/.test(value))
    throw new ApiError(2001, { detail: `${field} must be a message id`, errors: [{ field, message: 'must be a message id' }] });
  return Number(value);
}

/** The chat widget's API (customers): its own contract, guard and limits; no cookie is read. */
export const widgetApiHandler = createApiHandler<typeof widgetContract, { widget: WidgetVisitorAuth }>({
  contract: widgetContract,
  router: widgetRouter,
  guard: widgetGuard,
});
