import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { CODES, type Code } from '@/contracts/codes';
import type { BotRequest, BotRequestQuery } from '@/contracts/schemas/admin-trace';
import type { Db } from '@/db/client';
import { botRequests, users } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { decodeCursor, encodeCursor } from '@/lib/util/cursor';
import { accountChats } from './known-chats';

const isCursor = (p: unknown[]): p is [string, number] => p.length === 2 && typeof p[0] === 'string' && Number.isInteger(p[1]);

/**
 * The request log of one VA, one chat or one trxid, newest first, filtered, paged by (at, id).
 * Each of the three has its index ending in that order (bot_requests_va_idx, failures and failure
 * codes bot_requests_va_failures_idx; bot_requests_chat_idx; bot_requests_trxid_idx), so a page is a short
 * index walk; the other filters are checked on the rows walked.
 */
export async function listBotRequests(db: Db, { accountId, query }: { accountId: number; query: BotRequestQuery }) {
  const pageSize = query.page_size ?? 50;
  const rows = await botRequestsPage(db, { accountId, query });
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  // A call about a chat ID that is no chat of the account shows that ID in its path, not as a chat to open.
  const chatOf = await accountChats(
    db,
    accountId,
    page.map(({ r }) => r.chatId),
  );
  return {
    requests: page.map(({ r, loginId }) => toBotRequestView({ ...r, chatId: chatOf(r.chatId) }, loginId)),
    next_cursor: rows.length > pageSize && last ? encodeCursor([last.r.at.toISOString(), last.r.id]) : null,
  };
}

/** The page's query (one row more than the page, to know whether another follows); the plan test EXPLAINs it. */
export function botRequestsPage(db: Db, { accountId, query }: { accountId: number; query: BotRequestQuery }) {
  if (query.virtual_agent_id === undefined && query.chat_id === undefined && query.trxid === undefined) {
    throw new ApiError(2001, {
      detail: 'give virtual_agent_id, chat_id or trxid',
      errors: [{ field: 'query.virtual_agent_id', message: 'give virtual_agent_id, chat_id or trxid' }],
    });
  }
  const where: SQL[] = [eq(botRequests.accountId, accountId)];
  if (query.virtual_agent_id !== undefined) where.push(eq(botRequests.virtualAgentId, query.virtual_agent_id));
  if (query.chat_id !== undefined) where.push(eq(botRequests.chatId, query.chat_id));
  if (query.trxid !== undefined) where.push(eq(botRequests.trxid, query.trxid));
  // A failure code implies a failing answer; saying so lets the planner walk the failures' own index.
  const failureCode = query.status_code !== undefined && (CODES[query.status_code as Code]?.http ?? 0) >= 400;
  if (query.outcome === 'failure' || failureCode) where.push(gte(botRequests.httpStatus, 400));
  if (query.outcome === 'success') where.push(lt(botRequests.httpStatus, 400));
  if (query.http_status !== undefined) where.push(eq(botRequests.httpStatus, query.http_status));
  if (query.status_code !== undefined) where.push(eq(botRequests.statusCode, query.status_code));
  if (query.operation !== undefined) where.push(eq(botRequests.operation, query.operation));
  if (query.since) where.push(gte(botRequests.at, new Date(query.since)));
  if (query.until) where.push(lt(botRequests.at, new Date(query.until)));
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, isCursor);
    // A row comparison is one index condition: the next page starts at the cursor in the index
    // instead of filtering every row before it.
    where.push(sql`(${botRequests.at}, ${botRequests.id}) < (${new Date(at).toISOString()}::timestamptz, ${id}::bigint)`);
  }
  const pageSize = query.page_size ?? 50;
  return db
    .select({ r: botRequests, loginId: users.loginId })
    .from(botRequests)
    .innerJoin(users, eq(users.id, botRequests.virtualAgentId))
    .where(and(...where))
    .orderBy(desc(botRequests.at), desc(botRequests.id))
    .limit(pageSize + 1);
}

export function toBotRequestView(r: typeof botRequests.$inferSelect, loginId: string): BotRequest {
  return {
    id: r.id,
    at: r.at.toISOString(),
    virtual_agent_id: r.virtualAgentId,
    virtual_agent_login_id: loginId,
    operation: r.operation,
    method: r.method,
    path: r.path,
    chat_id: r.chatId,
    http_status: r.httpStatus,
    status_code: r.statusCode,
    description: r.description,
    trxid: r.trxid,
    latency_ms: r.latencyMs,
    idempotency_key: r.idempotencyKey,
  };
}
