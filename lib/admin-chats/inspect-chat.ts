import { and, asc, desc, eq } from 'drizzle-orm';
import type { AdminChatDetail, AdminEvent } from '@/contracts/admin/schemas/chat';
import type { Db } from '@/db/client';
import { chats, deliveryAttempts, events, messages } from '@/db/schema';
import { listChatApprovals } from '@/lib/approvals/list-chat-approvals';
import { chatListWith, toChatView } from '@/lib/chats/chat-view';
import { loadHandoverCard } from '@/lib/handovers/handover-card';
import { ApiError } from '@/platform/errors';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The inspection without its transcript: what the console's live view sends as `details`. */
export type AdminChatDetails = Omit<AdminChatDetail, 'messages'>;

/**
 * A chat for support: the whole transcript (announcements included), and every event of the chat
 * with every delivery attempt, so an admin can see what the bot was sent and what it answered.
 */
export async function inspectChat(db: Db, { accountId, chatId }: { accountId: number; chatId: string }): Promise<AdminChatDetail> {
  return (await readChatInspection(db, { accountId, chatId })).view;
}

/** inspectChat's answer with the transcript's rows (ids and open replies), for a live view to follow on from. */
export async function readChatInspection(db: Db, { accountId, chatId }: { accountId: number; chatId: string }) {
  const row = await db.query.chats.findFirst({
    where: and(eq(chats.id, chatId), eq(chats.accountId, accountId)),
    with: { ...chatListWith, messages: { columns: { ...chatListWith.messages.columns, id: true }, orderBy: desc(messages.id) } },
  });
  if (!row) throw new ApiError(3006, { detail: `no chat ${chatId}` });
  const view: AdminChatDetail = { ...toChatView(row), ...(await aroundChat(db, { accountId, chatId })) };
  return { view, seen: [...row.messages].reverse() };
}

/** Everything of inspectChat's answer but the transcript (3006 for a chat of another account). */
export async function inspectChatDetails(db: Db, { accountId, chatId }: { accountId: number; chatId: string }): Promise<AdminChatDetails> {
  const row = await db.query.chats.findFirst({ where: and(eq(chats.id, chatId), eq(chats.accountId, accountId)), with: chatListWith });
  if (!row) throw new ApiError(3006, { detail: `no chat ${chatId}` });
  const { messages: _latest, ...facts } = toChatView(row);
  return { ...facts, ...(await aroundChat(db, { accountId, chatId })) };
}

/** The chat's events with their delivery attempts, its handover card and its approvals. */
async function aroundChat(db: Db, { accountId, chatId }: { accountId: number; chatId: string }) {
  const eventRows = await db.query.events.findMany({
    where: and(eq(events.chatId, chatId), eq(events.accountId, accountId)),
    orderBy: [asc(events.seq), asc(events.id)],
    with: {
      virtualAgent: { columns: { loginId: true } },
      attempts: { orderBy: [asc(deliveryAttempts.attemptNumber), asc(deliveryAttempts.id)] },
    },
  });
  const eventViews: AdminEvent[] = eventRows.map((e) => ({
    id: e.id,
    transaction_id: e.transactionId,
    event_type: e.eventType,
    virtual_agent_login_id: e.virtualAgent.loginId,
    seq: e.seq,
    status: e.status,
    attempt_count: e.attemptCount,
    next_attempt_at: iso(e.nextAttemptAt),
    last_error: e.lastError,
    created_at: iso(e.createdAt),
    delivered_at: isoOrNull(e.deliveredAt),
    failed_at: isoOrNull(e.failedAt),
    superseded_at: isoOrNull(e.supersededAt),
    turn: e.turnId ? { turn_id: e.turnId, held_until: isoOrNull(e.heldUntil), held_ms: e.heldMs, closed_by: e.turnClosedBy } : null,
    body: e.body,
    attempts: e.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      started_at: iso(a.startedAt),
      duration_ms: a.durationMs,
      http_status: a.httpStatus,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
  }));
  const [handover, requests] = await Promise.all([loadHandoverCard(db, { chatId }), listChatApprovals(db, { accountId, chatId })]);
  return { events: eventViews, handover, approvals: requests };
}
