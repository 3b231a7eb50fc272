import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { QUEUE_REASONS, type workspaceListsSchema } from '@/contracts/schemas/agent';
import type { Db } from '@/db/client';
import { chats, customers, messages, teamMemberships, teams } from '@/db/schema';

export type WorkspaceLists = z.infer<typeof workspaceListsSchema>;

/** The most chats each list shows. A queue longer than this shows its oldest. */
export const LIST_LIMIT = 100;

/**
 * The queue: the person's teams' waiting, unassigned chats, oldest first (by when they were
 * queued). Read through `chats_queue_idx`, whose rows are only the waiting chats, so its cost
 * follows the queue's length, not the table's.
 */
export function queueQuery(db: Db, { userId }: { userId: number }) {
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
    })
    .from(chats)
    .innerJoin(teams, eq(teams.id, chats.teamId))
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .where(
      and(
        inArray(chats.teamId, db.select({ id: teamMemberships.teamId }).from(teamMemberships).where(eq(teamMemberships.userId, userId))),
        eq(chats.status, 'queued'),
        isNull(chats.assigneeId),
      ),
    )
    .orderBy(asc(chats.queuedAt), asc(chats.id))
    .limit(LIST_LIMIT);
}

/** "Mine": the open chats assigned to the person, latest change first, and whether the customer spoke last. */
export function mineQuery(db: Db, { userId }: { userId: number }) {
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
    .where(and(eq(chats.assigneeId, userId), inArray(chats.status, ['picked', 'onhold'])))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(LIST_LIMIT);
}

export async function listWorkspace(db: Db, { userId, now = new Date() }: { userId: number; now?: Date }): Promise<WorkspaceLists> {
  const [queue, mine] = await Promise.all([queueQuery(db, { userId }), mineQuery(db, { userId })]);
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
  };
}

function reasonOf(value: string | null): (typeof QUEUE_REASONS)[number] {
  return (QUEUE_REASONS as readonly string[]).includes(value ?? '') ? (value as (typeof QUEUE_REASONS)[number]) : 'new';
}
