import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { appendChunk } from '@/lib/chats/append-chunk';
import { appendMessage } from '@/lib/chats/append-message';
import { closeStream } from '@/lib/chats/close-stream';
import { listMessages } from '@/lib/chats/list-messages';
import { replyStreamLimits, takeReplyStream } from '@/lib/chats/take-reply-stream';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';
import { fingerprintOf, REPLAYED_HEADER } from '@/platform/idempotency/with-idempotency';

export const messagesRouter = tsr.routerWithMiddleware(botContract.messages)<{ bot: BotAuth }>({
  listMessages: async ({ params, query }, { request }) => {
    const page = await listMessages(await getDb(), {
      accountId: request.bot.accountId,
      chatId: params.chat_id,
      pageSize: query.page_size,
      cursor: query.cursor,
    });
    return ok(4305, { messages: page.messages, next_cursor: page.nextCursor });
  },
  postMessage: async ({ params, body, headers }, { responseHeaders, request }) => {
    const { accountId, loginId, userId } = request.bot;
    const { message, replayed } = await appendMessage(await getDb(), {
      accountId,
      chatId: params.chat_id,
      actorLoginId: loginId,
      actorUserId: userId,
      input: body,
      idempotency: {
        key: headers['idempotency-key'],
        fingerprint: fingerprintOf('POST', `/chats/${params.chat_id}/messages`, body),
      },
    });
    if (replayed) responseHeaders.set(REPLAYED_HEADER, 'true');
    return ok(4306, message);
  },
  appendChunk: async ({ params, body }, { request }) => {
    const { accountId, userId } = request.bot;
    const { message } = await appendChunk(await getDb(), {
      accountId,
      chatId: params.chat_id,
      transid: params.transid,
      actorUserId: userId,
      seq: body.seq,
      text: body.text,
    });
    return ok(4312, message);
  },
  streamReply: async ({ params, query, body }, { request }) => {
    const { accountId, loginId, userId } = request.bot;
    const message = await takeReplyStream(await getDb(), {
      accountId,
      chatId: params.chat_id,
      actorUserId: userId,
      actorLoginId: loginId,
      body,
      statusText: query.status_text,
      statusLabels: query.status_labels,
      limits: replyStreamLimits(),
    });
    return ok(4306, message);
  },
  closeStream: async ({ params, body }, { request }) => {
    const { accountId, userId } = request.bot;
    const message = await closeStream(await getDb(), {
      accountId,
      chatId: params.chat_id,
      transid: params.transid,
      actorUserId: userId,
      text: body.text,
    });
    return ok(4313, message);
  },
});
