import type { BotRequestRow } from '@/lib/request-log/request-log-buffer';
import { newTraceId, traceIdTime } from '@/platform/util/ids';

/** A request log row as bench:api's PATCH leaves it: a success about `chatId`, with a fresh trxid. */
export function patchRow(chatId: string, over: Partial<BotRequestRow> = {}): BotRequestRow {
  const trxid = newTraceId();
  return {
    accountId: 1,
    virtualAgentId: 4,
    at: new Date(traceIdTime(trxid)),
    operation: 'updateChat',
    method: 'PATCH',
    path: `/api/v1/chats/${chatId}`,
    chatId,
    httpStatus: 200,
    statusCode: 4304,
    description: 'Chat details retrieved successfully',
    trxid,
    latencyMs: 3,
    idempotencyKey: null,
    ...over,
  };
}
