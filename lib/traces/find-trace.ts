import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { TraceMatch } from '@/contracts/admin/schemas/trace';
import type { Db } from '@/db/client';
import { botRequests, chats, events, idempotencyKeys, messages, users } from '@/db/schema';
import { accountChats } from '@/lib/request-log/known-chats';
import { callerLoginId, inAccountVirtualAgents } from '@/lib/request-log/list-bot-requests';
import { recordingView } from '@/lib/request-log/sampling';
import { isTraceId } from '@/platform/util/ids';

/** Most rows shown for an id that names several things (an alias ID reused, a key sent often). */
const MANY = 10;

/** The console path of a chat, optionally scrolled to and highlighting one of its items. */
function chatLink(chatId: string, focus?: string): string {
  const base = `/admin/chats/${encodeURIComponent(chatId)}`;
  return focus ? `${base}?focus=${encodeURIComponent(focus)}` : base;
}

const match = (m: Partial<TraceMatch> & Pick<TraceMatch, 'kind' | 'summary' | 'link'>): TraceMatch => ({
  chat_id: null,
  message_transid: null,
  event_id: null,
  request_id: null,
  virtual_agent_id: null,
  at: null,
  ...m,
});

type RequestRow = typeof botRequests.$inferSelect;

/**
 * A logged call, linked to its row on the chat page when its chat is one of the account's, else to
 * the row in the VA's request log: a call about a chat ID that does not exist (2031), or that is
 * another account's, names a chat no page of this account can show.
 */
function requestMatch(
  kind: 'request' | 'idempotency_key',
  r: RequestRow,
  loginId: string,
  chatOf: (id: string | null) => string | null,
): TraceMatch {
  const code = r.statusCode ?? r.httpStatus;
  const chatId = chatOf(r.chatId);
  return match({
    kind,
    chat_id: chatId,
    request_id: r.trxid,
    virtual_agent_id: r.virtualAgentId,
    at: r.at.toISOString(),
    summary: `${r.method} ${r.path} by ${loginId} → ${code} (trxid ${r.trxid})`,
    link: chatId
      ? chatLink(chatId, `request:${r.trxid}`)
      : `/admin/virtual-agents/${r.virtualAgentId}?trxid=${encodeURIComponent(r.trxid)}`,
  });
}

/** The look-ups of findTrace, as query builders (awaited there, EXPLAINed by the plan test). */
export function traceLookups(db: Db, { accountId, id }: { accountId: number; id: string }) {
  const requestsWhere = (where: SQL | undefined) =>
    db.select({ r: botRequests, loginId: callerLoginId }).from(botRequests).where(where).orderBy(desc(botRequests.trxid)).limit(MANY);
  return {
    chat: db
      .select({ id: chats.id, createdAt: chats.createdAt })
      .from(chats)
      .where(and(eq(chats.id, id), eq(chats.accountId, accountId))),
    message: db
      .select({ chatId: messages.chatId, transid: messages.transid, type: messages.type, sentAt: messages.sentAt })
      .from(messages)
      .where(and(eq(messages.transid, id), eq(messages.accountId, accountId))),
    event: db
      .select({ e: events, loginId: users.loginId })
      .from(events)
      .innerJoin(users, eq(users.id, events.virtualAgentId))
      .where(and(eq(events.transactionId, id), eq(events.accountId, accountId))),
    // Not a trxid of ours: no call has it (and the uuid column must not be asked).
    request: isTraceId(id)
      ? requestsWhere(
          and(eq(botRequests.trxid, id.toLowerCase()), eq(botRequests.accountId, accountId), inAccountVirtualAgents(db, accountId)),
        )
      : null,
    keyedRequests: requestsWhere(and(eq(botRequests.accountId, accountId), eq(botRequests.idempotencyKey, id))),
    idempotencyKey: db
      .select({ response: idempotencyKeys.response, createdAt: idempotencyKeys.createdAt })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, id))),
    alias: db
      .select({ id: chats.id, createdAt: chats.createdAt })
      .from(chats)
      .where(and(eq(chats.accountId, accountId), eq(chats.aliasId, id)))
      .limit(MANY),
  };
}

/**
 * What an id is and where it is shown: a chat ID, an alias ID, a message transid, an event's
 * transaction_id (webhook-id), a bot call's trxid or an Idempotency-Key, in the account only.
 * Every look-up (traceLookups) is one index read: chats' primary key and (account_id, alias_id),
 * the unique transid and transaction_id, bot_requests by (VA, trxid) for each VA of the account
 * and by (account_id, idempotency_key), and idempotency_keys' primary key; test/plans/traces checks the plans.
 * Nothing found, or only another account's: no matches, alike.
 */
export async function findTrace(db: Db, { accountId, id }: { accountId: number; id: string }) {
  const q = traceLookups(db, { accountId, id });
  const found: TraceMatch[] = [];
  // All look-ups at once: each is one index probe, so the answer takes the slowest one's round
  // trip, not the sum of seven.
  const [[chat], [message], [event], requests, keyed, [key], aliases] = await Promise.all([
    q.chat,
    q.message,
    q.event,
    q.request ?? [],
    q.keyedRequests,
    q.idempotencyKey,
    q.alias,
  ]);

  if (chat)
    found.push(
      match({ kind: 'chat', chat_id: chat.id, at: chat.createdAt.toISOString(), summary: `Chat ${chat.id}`, link: chatLink(chat.id) }),
    );

  if (message) {
    found.push(
      match({
        kind: 'message',
        chat_id: message.chatId,
        message_transid: message.transid,
        at: message.sentAt.toISOString(),
        summary: `${message.type} message in chat ${message.chatId}`,
        link: chatLink(message.chatId, `message:${message.transid}`),
      }),
    );
  }

  if (event) {
    const e = event.e;
    found.push(
      match({
        kind: 'event',
        chat_id: e.chatId,
        event_id: e.id,
        virtual_agent_id: e.virtualAgentId,
        at: e.createdAt.toISOString(),
        summary: `${e.eventType} #${e.seq} to ${event.loginId}: ${e.status} after ${e.attemptCount} attempt${e.attemptCount === 1 ? '' : 's'}`,
        link: chatLink(e.chatId, `event:${e.id}`),
      }),
    );
  }

  const chatOf = await accountChats(
    db,
    accountId,
    [...requests, ...keyed].map(({ r }) => r.chatId),
  );
  for (const { r, loginId } of requests) found.push(requestMatch('request', r, loginId, chatOf));

  for (const { r, loginId } of keyed) found.push(requestMatch('idempotency_key', r, loginId, chatOf));
  // The call may not be in the log (sampled out, or older than it keeps): the key's stored answer names what it made.
  if (!keyed.length && key) found.push(await keyMatch(db, accountId, key));

  for (const c of aliases) {
    found.push(
      match({
        kind: 'alias_id',
        chat_id: c.id,
        at: c.createdAt.toISOString(),
        summary: `Chat ${c.id} (alias ID ${id})`,
        link: chatLink(c.id),
      }),
    );
  }

  return { id, matches: found, recording: recordingView() };
}

async function keyMatch(db: Db, accountId: number, key: { response: unknown; createdAt: Date }): Promise<TraceMatch> {
  const stored = (key.response ?? {}) as { chat_id?: unknown; transid?: unknown };
  const transid = typeof stored.transid === 'string' ? stored.transid : null;
  let chatId = typeof stored.chat_id === 'string' ? stored.chat_id : null;
  if (!chatId && transid) {
    const [m] = await db
      .select({ chatId: messages.chatId })
      .from(messages)
      .where(and(eq(messages.transid, transid), eq(messages.accountId, accountId)));
    chatId = m?.chatId ?? null;
  }
  const at = key.createdAt.toISOString();
  if (chatId && transid) {
    return match({
      kind: 'idempotency_key',
      chat_id: chatId,
      message_transid: transid,
      at,
      summary: `Stored message ${transid}`,
      link: chatLink(chatId, `message:${transid}`),
    });
  }
  if (chatId) return match({ kind: 'idempotency_key', chat_id: chatId, at, summary: `Created chat ${chatId}`, link: chatLink(chatId) });
  return match({
    kind: 'idempotency_key',
    at,
    summary: 'A request with this key is still being answered, or failed',
    link: '/admin/chats',
  });
}
