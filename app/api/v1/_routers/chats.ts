import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { requireTransferEnabled } from '@/lib/accounts/transfer-setting';
import { loadChatOrFail } from '@/lib/chats/chat-view';
import { createChat } from '@/lib/chats/create-chat';
import { listChats } from '@/lib/chats/list-chats';
import { setTyping } from '@/lib/chats/set-typing';
import { transferChat } from '@/lib/chats/transfer-chat';
import { updateChat } from '@/lib/chats/update-chat';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';
import { fingerprintOf, REPLAYED_HEADER } from '@/platform/idempotency/with-idempotency';

export const chatsRouter = tsr.routerWithMiddleware(botContract.chats)<{ bot: BotAuth }>({
  createChat: async ({ body, headers }, { responseHeaders, request }) => {
    const { accountId, loginId } = request.bot;
    const { chat, replayed } = await createChat(await getDb(), {
      accountId,
      actorLoginId: loginId,
      body,
      idempotency: { key: headers['idempotency-key'], fingerprint: fingerprintOf('POST', '/chats', body) },
    });
    if (replayed) responseHeaders.set(REPLAYED_HEADER, 'true');
    return ok(4302, chat);
  },
  listChats: async ({ query }, { request }) => {
    const { chats, nextCursor } = await listChats(await getDb(), {
      accountId: request.bot.accountId,
      filters: {
        status: query.status,
        channel: query.channel,
        assignee: query.assignee,
        tag: query.tag,
        teamId: query.team_id,
        updatedSince: query.updated_since,
        pageSize: query.page_size,
        cursor: query.cursor,
      },
    });
    return ok(4303, { chats, next_cursor: nextCursor });
  },
  getChat: async ({ params }, { request }) =>
    ok(4304, await loadChatOrFail(await getDb(), { accountId: request.bot.accountId, chatId: params.chat_id })),
  updateChat: async ({ params, headers, body }, { request }) => {
    const { accountId, userId, loginId } = request.bot;
    return ok(
      4304,
      await updateChat(await getDb(), {
        accountId,
        chatId: params.chat_id,
        teamId: headers.team_id,
        patch: body,
        actorUserId: userId,
        actorLoginId: loginId,
      }),
    );
  },
  transferChat: async ({ params, body }, { request }) => {
    const { accountId, userId, loginId } = request.bot;
    await requireTransferEnabled(await getDb(), { accountId });
    await transferChat(await getDb(), {
      accountId,
      actorUserId: userId,
      actorLoginId: loginId,
      chatId: params.chat_id,
      teamId: Number(body.transfer.teamid),
      skillName: body.transfer.skill_name,
      handover: body.handover,
    });
    return ok(4342, '' as const);
  },
  setTyping: async ({ params, body }, { request }) => {
    const { accountId, userId } = request.bot;
    return ok(4311, await setTyping(await getDb(), { accountId, chatId: params.chat_id, actorUserId: userId, input: body }));
  },
});
