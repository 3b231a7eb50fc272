import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { BotRequest, BotRequestQuery } from '@/contracts/admin/schemas/trace';
import { CODES, type Code } from '@/contracts/codes';
import type { Db } from '@/db/client';
import { botRequests, users, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';
import { isTraceId, traceIdFloor } from '@/platform/util/ids';
import { accountChats } from './known-chats';
import { recordingView } from './sampling';

const isCursor = (p: unknown[]): p is [string] => p.length === 1 && typeof p[0] === 'string' && isTraceId(p[0]);

/**
 * The request log of one VA, one chat or one trxid, newest first, filtered, paged by trxid (a
 * version 7 UUID, so newest first by trxid is newest first by time). Each has its index ending in
 * trxid (a VA: the primary key, failures and failure codes bot_requests_va_failures_idx; a chat:
 * bot_requests_chat_idx; a trxid: the primary key, once per VA of the account), and `since` and
 * `until` bound the trxid too, so a page is a short index walk; the other filters are checked on
 * the rows walked.
 */
export async function listBotRequests(db: Db, { accountId, query }: { accountId: number; query: BotRequestQuery }) {
  const pageSize = query.page_size ?? 25;
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
    next_cursor: rows.length > pageSize && last ? encodeCursor([last.r.trxid]) : null,
    recording: recordingView(query.chat_id),
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
  if (query.trxid !== undefined) {
    // Not one of our trxids: no call has it (and the uuid column must not be asked).
    if (!isTraceId(query.trxid)) where.push(sql`false`);
    else {
      where.push(eq(botRequests.trxid, query.trxid.toLowerCase()));
      // Without a VA, the trxid is looked up in each of the account's VAs' part of the primary key.
      if (query.virtual_agent_id === undefined && query.chat_id === undefined) where.push(inAccountVirtualAgents(db, accountId));
    }
  }
  // A failure code implies a failing answer; saying so lets the planner walk the failures' own index.
  const failureCode = query.status_code !== undefined && (CODES[query.status_code as Code]?.http ?? 0) >= 400;
  if (query.outcome === 'failure' || failureCode) where.push(gte(botRequests.httpStatus, 400));
  if (query.outcome === 'success') where.push(lt(botRequests.httpStatus, 400));
  if (query.http_status !== undefined) where.push(eq(botRequests.httpStatus, query.http_status));
  if (query.status_code !== undefined) where.push(eq(botRequests.statusCode, query.status_code));
  if (query.operation !== undefined) where.push(eq(botRequests.operation, query.operation));
  // A row's `at` is its trxid's time to the millisecond, so a time range is exactly a trxid range:
  // an index condition. Only that: a condition on `at` as well let the planner gather the whole
  // range through the BRIN on `at` and sort it (seen on 200,000 rows: an hour of a VA's calls
  // sorted for a page of 25).
  if (query.since) where.push(gte(botRequests.trxid, traceIdFloor(new Date(query.since).getTime())));
  if (query.until) where.push(lt(botRequests.trxid, traceIdFloor(new Date(query.until).getTime())));
  // The next page starts at the cursor in the index instead of filtering every row before it.
  if (query.cursor) where.push(lt(botRequests.trxid, decodeCursor(query.cursor, isCursor)[0]));
  const pageSize = query.page_size ?? 25;
  return db
    .select({ r: botRequests, loginId: callerLoginId })
    .from(botRequests)
    .where(and(...where))
    .orderBy(desc(botRequests.trxid))
    .limit(pageSize + 1);
}

/**
 * The calling VA's login ID, looked up for each row of the page only. A join would let the
 * planner put a hash join, and then a sort of every matching row, under the LIMIT: it estimates a
 * chat's calls from the average chat's, and a chat a bot polls has tens of thousands (seen in
 * bench:scale: 25 ms for the chat page's first 25 of 34,000 calls, 0.1 ms with this).
 */
export const callerLoginId = sql<string>`(select ${users.loginId} from ${users} where ${users.id} = ${botRequests.virtualAgentId})`;

/** The VAs of the account, as a condition on a request log row. */
export function inAccountVirtualAgents(db: Db, accountId: number): SQL {
  return inArray(
    botRequests.virtualAgentId,
    db.select({ id: virtualAgents.userId }).from(virtualAgents).where(eq(virtualAgents.accountId, accountId)),
  );
}

function toBotRequestView(r: typeof botRequests.$inferSelect, loginId: string): BotRequest {
  return {
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
