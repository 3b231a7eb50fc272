import { and, asc, desc, eq, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { QUEUE_REASONS, type workspaceListsSchema } from '@/contracts/agent/schemas';
import type { Db } from '@/db/client';
import { chatHandovers, chats, customers, messages, teams, users } from '@/db/schema';
import { listPendingApprovals } from '@/lib/approvals/list-pending-approvals';
import { prepared } from '@/platform/util/prepared';

export type WorkspaceLists = z.infer<typeof workspaceListsSchema>;

/** The most chats each list shows. A queue longer than this shows its oldest. */
const LIST_LIMIT = 50;

/**
 * One team's queue: its waiting, unassigned chats, oldest first (by when they were queued). A walk
 * of `chats_queue_idx`, whose rows are only the waiting chats, in its own order: no sort, and a
 * cost that follows the page, not the table nor the queue's length.
 */
export function teamQueueQuery(db: Db, { teamId }: { teamId: number | Placeholder }) {
  return db
    .select({
      id: chats.id,
      channel: chats.channel,
      teamId: chats.teamId,
      teamName: teams.name,
      skill: chats.skill,
      customerName: customers.name,
      destinationId: customers.destinationId,
      queuedAt: chats.queuedAt,
      queueReason: chats.queueReason,
      // The latest handover from a bot, through chat_handovers_chat_idx: one row per queued chat shown.
      handover: sql<{ from: string; reason: string | null; intent: string | null } | null>`(
        select json_build_object('from', u.login_id, 'reason', h.reason, 'intent', h.intent)
        from ${chatHandovers} h join ${users} u on u.id = h.va_user_id
        where h.chat_id = ${chats.id} order by h.id desc limit 1)`,
    })
    .from(chats)
    .innerJoin(teams, eq(teams.id, chats.teamId))
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .where(and(eq(chats.teamId, teamId), eq(chats.status, 'queued'), isNull(chats.assigneeId)))
    .orderBy(asc(chats.queuedAt), asc(chats.id))
    .limit(LIST_LIMIT);
}

/**
 * The person's open chats in one status, latest change first: a walk of
 * `chats_assignee_status_list_idx` in its order. Whether the customer spoke last is read for the
 * page's rows only, each from the end of the chat's `messages_chat_idx`.
 */
export function mineQuery(db: Db, { userId, status }: { userId: number | Placeholder; status: 'picked' | 'onhold' | Placeholder }) {
  const lastType = sql<
    string | null
  >`(select ${messages.type} from ${messages} where ${messages.chatId} = ${chats.id} and ${messages.type} <> 'announcement' order by ${messages.id} desc limit 1)`;
  return db
    .select({
      id: chats.id,
      channel: chats.channel,
      status: chats.status,
      teamId: chats.teamId,
      customerName: customers.name,
      destinationId: customers.destinationId,
      updatedAt: chats.updatedAt,
      lastType,
    })
    .from(chats)
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .where(and(eq(chats.assigneeId, userId), eq(chats.status, status)))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(LIST_LIMIT);
}

// Prepared once per connection pool: planned once, not on every read of a workspace.
const teamQueueStatement = prepared('agent_team_queue', (db: Db) => teamQueueQuery(db, { teamId: sql.placeholder('teamId') }));
const mineStatement = prepared('agent_mine', (db: Db) =>
  mineQuery(db, { userId: sql.placeholder('userId'), status: sql.placeholder('status') }),
);

const byQueuedAt = (a: { queuedAt: Date; id: string }, b: { queuedAt: Date; id: string }) =>
  a.queuedAt.getTime() - b.queuedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byUpdatedDesc = (a: { updatedAt: Date; id: string }, b: { updatedAt: Date; id: string }) =>
  b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The queue (the person's teams' queues merged, oldest first) and Mine (picked and on hold merged,
 * latest first), each at most LIST_LIMIT: every part is an index walk of at most that many rows.
 */
export async function listWorkspace(
  db: Db,
  { userId, teamIds, now = new Date() }: { userId: number; teamIds: number[]; now?: Date },
): Promise<WorkspaceLists> {
  const [queues, picked, onhold, approvals] = await Promise.all([
    Promise.all(teamIds.map((teamId) => teamQueueStatement(db).execute({ teamId }))),
    mineStatement(db).execute({ userId, status: 'picked' }),
    mineStatement(db).execute({ userId, status: 'onhold' }),
    listPendingApprovals(db, { userId, teamIds }),
  ]);
  const queue = queues.flat().sort(byQueuedAt).slice(0, LIST_LIMIT);
  const mine = [...picked, ...onhold].sort(byUpdatedDesc).slice(0, LIST_LIMIT);
  return {
    queue: queue.map((r) => ({
      chat_id: r.id,
      channel: r.channel,
      team_id: r.teamId,
      team_name: r.teamName,
      skill: r.skill,
      customer_name: r.customerName || null,
      destination_id: r.destinationId,
      queued_at: r.queuedAt.toISOString(),
      waited_seconds: Math.max(0, Math.floor((now.getTime() - r.queuedAt.getTime()) / 1000)),
      reason: reasonOf(r.queueReason),
      handover: r.handover,
    })),
    mine: mine.map((r) => ({
      chat_id: r.id,
      channel: r.channel,
      status: r.status as 'picked' | 'onhold',
      team_id: r.teamId,
      customer_name: r.customerName || null,
      destination_id: r.destinationId,
      updated_at: r.updatedAt.toISOString(),
      awaiting_reply: r.lastType === 'inbound',
    })),
    approvals,
  };
}

function reasonOf(value: string | null): (typeof QUEUE_REASONS)[number] {
  return (QUEUE_REASONS as readonly string[]).includes(value ?? '') ? (value as (typeof QUEUE_REASONS)[number]) : 'new';
}
