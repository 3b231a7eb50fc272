import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { inspectChat } from '@/lib/admin-chats/inspect-chat';
import { postAdminMessage } from '@/lib/admin-chats/post-admin-message';
import { searchChats } from '@/lib/admin-chats/search-chats';
import { streamAdminChat } from '@/lib/admin-chats/stream-admin-chat';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';
import { withStreamSeat } from '@/platform/realtime/stream-seats';

export const chatsRouter = tsr.routerWithMiddleware(adminContract.chats)<{ admin: AdminAuth }>({
  listChats: async ({ query }, { request }) => {
    const { chats, nextCursor } = await searchChats(await getDb(), { accountId: request.admin.accountId, query });
    return ok(4400, { chats, next_cursor: nextCursor });
  },
  getChat: async ({ params }, { request }) =>
    ok(4400, await inspectChat(await getDb(), { accountId: request.admin.accountId, chatId: params.chat_id })),
  streamChat: async ({ params, headers }, { request }) => {
    const resume = headers['last-event-id'];
    const stream = await withStreamSeat(async () =>
      streamAdminChat(await getDb(), {
        accountId: request.admin.accountId,
        chatId: params.chat_id,
        after: resume === undefined ? undefined : Number(resume),
      }),
    );
    // An EventStream body is streamed by both entries (platform/http); the contract documents it as text/event-stream.
    return { status: 200 as const, body: stream };
  },
  postMessage: async ({ params, body }, { request }) => {
    const { accountId, email } = request.admin;
    return ok(4401, await postAdminMessage(await getDb(), { accountId, chatId: params.chat_id, adminEmail: email, input: body }));
  },
});
