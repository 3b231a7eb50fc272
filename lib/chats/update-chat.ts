import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Chat, UpdateChatBody } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { assets, chats, customers, teams, users } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { type EventCause, enqueueEvent } from '@/lib/events/enqueue-event';
import { signalOutbox } from '@/lib/events/signal';
import { assignQueuedChat, fillFreeSeats } from '@/lib/routing/auto-assign';
import { logger } from '@/lib/util/logger';
import { prepared } from '@/lib/util/prepared';
import { type Assignee, lastMessageOf, resolveAssignee, teamForAssignee } from './assignment';
import { type ChatViewRow, latestMessagesJson, loadChatOrFail, toChatView } from './chat-view';
import { dropNulls } from './create-chat';
import { eventChatOf, lockChat, requireTeam } from './lock-chat';
import { notifyLostControl } from './notify-lost-control';

export type UpdateChatInput = {
  accountId: number;
  chatId: string;
  teamId: number;
  patch: UpdateChatBody;
  /** The user making the change (the VA, through the bot API), or null for an administrator. */
  actorUserId: number | null;
};

const UPDATABLE = ['alias_id', 'tags', 'status', 'assignee', 'outcome', 'other_details'] as const;

/**
 * PATCH /chats/{chat_id}. The `team_id` header must name the chat's current team (2010 when the
 * account has no such team, 2031 when the chat is elsewhere). Assignment rules:
 * - a new assignee takes the chat (status `picked` unless another is sent), moving it to the
 *   assignee's team when it is not a member of the current one; a VA receives `chat.assigned`;
 * - `assignee: null` or `status: queued` puts the chat back in its team's queue, unassigned;
 * - `status: closed` closes it (with `outcome`); an assigned VA receives `chat.closed`;
 * - leaving `closed` reopens it and clears the outcome.
 * A chat back in the queue is offered to auto-assign; a seat freed by the change is offered to
 * the queue; a VA that loses the chat through someone else's change receives `chat.unassigned`.
 */
export async function updateChat(db: Db, { accountId, chatId, teamId, patch, actorUserId }: UpdateChatInput): Promise<Chat> {
  if (!UPDATABLE.some((k) => patch[k] !== undefined)) {
    throw new ApiError(2000, {
      detail: `send at least one of ${UPDATABLE.join(', ')}`,
      errors: [{ field: '(body)', message: 'no updatable field' }],
    });
  }
  if (patch.outcome !== undefined && patch.status !== 'closed') {
    throw new ApiError(2000, {
      detail: 'outcome is only accepted with status closed',
      errors: [{ field: 'outcome', message: 'requires status: closed' }],
    });
  }
  if (isTagsOnly(patch)) {
    const chat = await setTagsOnly(db, { accountId, chatId, teamId, tags: patch.tags });
    if (chat) return chat;
  }
  const eventIds: number[] = [];
  await db.transaction(async (tx) => {
    let chat: Awaited<ReturnType<typeof lockChat>>;
    try {
      chat = await lockChat(tx, { accountId, chatId });
    } catch (err) {
      // The team header is checked first: a wrong team is 2010 whether or not the chat exists.
      await requireTeam(tx, { accountId, teamId });
      throw err;
    }
    if (chat.teamId !== teamId) {
      await requireTeam(tx, { accountId, teamId });
      throw new ApiError(2031, { detail: `chat ${chatId} is not in team ${teamId}` });
    }

    const now = new Date();
    const set: Partial<typeof chats.$inferInsert> = { updatedAt: now };
    if (patch.alias_id !== undefined) set.aliasId = patch.alias_id;
    if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)];
    if (patch.other_details !== undefined) set.otherDetails = dropNulls({ ...chat.otherDetails, ...patch.other_details });

    let assignee: Assignee | null | undefined;
    if (patch.assignee === null) assignee = null;
    else if (patch.assignee !== undefined) assignee = await resolveAssignee(tx, { accountId, loginId: patch.assignee });

    let status = patch.status ?? chat.status;
    let assigneeId = chat.assigneeId;
    const newlyAssigned = assignee && assignee.id !== chat.assigneeId ? assignee : null;
    if (assignee === null || patch.status === 'queued') {
      assigneeId = null;
      if (patch.status === undefined && chat.status !== 'closed') status = 'queued';
    }
    if (newlyAssigned) {
      if (chat.status === 'closed' && patch.status === undefined) {
        throw new ApiError(2040, { detail: 'reopen it with a status to assign it' });
      }
      assigneeId = newlyAssigned.id;
      set.teamId = teamForAssignee(newlyAssigned, chat.teamId) ?? chat.teamId;
      if (patch.status === undefined) status = 'picked';
    }
    if (status === 'queued' && patch.status === 'queued') assigneeId = null;
    set.status = status;
    set.assigneeId = assigneeId;
    if (status === 'closed' && chat.status !== 'closed') {
      set.closedAt = now;
      set.outcome = patch.outcome ?? null;
    } else if (status === 'closed' && patch.outcome !== undefined) {
      set.outcome = patch.outcome;
    } else if (status !== 'closed' && chat.status === 'closed') {
      set.closedAt = null;
      set.outcome = null;
    }

    await tx.update(chats).set(set).where(eq(chats.id, chat.id));

    const eventChat = eventChatOf({ ...chat, teamId: set.teamId ?? chat.teamId });
    const emit = async (vaUserId: number, cause: EventCause) => {
      const id = await enqueueEvent(tx, { accountId, chat: eventChat, vaUserId, cause });
      if (id) eventIds.push(id);
    };
    if (newlyAssigned?.kind === 'virtual_agent') {
      await emit(newlyAssigned.id, { type: 'chat.assigned', lastMessage: await lastMessageOf(tx, chat.id) });
    }
    if (set.closedAt && assigneeId !== null) {
      await emit(assigneeId, { type: 'chat.closed', outcome: set.outcome ?? null, at: now });
    }

    // Lost control is told before auto-assign runs: a chat re-queued and handed straight back to
    // the same VA then reads "unassigned, assigned", the order things happened, not the reverse.
    const previous = chat.assigneeId;
    const released = previous !== null && chat.status !== 'closed' && (assigneeId !== previous || status === 'closed');
    if (released) {
      const reason = status === 'closed' ? 'closed' : assigneeId !== null ? 'reassigned' : 'requeued';
      eventIds.push(
        ...(await notifyLostControl(tx, {
          accountId,
          chat: { ...chat, teamId: set.teamId ?? chat.teamId },
          previousAssigneeId: previous,
          actorUserId,
          reason,
          newAssignee: newlyAssigned?.loginId ?? null,
          at: now,
        })),
      );
    }
    if (status === 'queued' && assigneeId === null) {
      const auto = await assignQueuedChat(tx, { accountId, chatId: chat.id, teamId: set.teamId ?? chat.teamId, skill: chat.skill });
      if (auto) eventIds.push(...auto.eventIds);
    }
    if (released) eventIds.push(...(await fillFreeSeats(tx, { accountId, userId: previous })));
  });
  signalOutbox(eventIds);
  return loadChatOrFail(db, { accountId, chatId });
}

/**
 * The common bot call, a tags-only change, as one prepared statement that also answers the chat:
 * no transaction (the row lock is the UPDATE's own), no lock query, no second read. The path above
 * would lock the row, rewrite the same status and assignee, emit nothing, then read the chat.
 * The WHERE clause holds that path's precondition (the chat is in the header's team) and leaves to
 * it every case where a tag change does more than write tags: a queued, unassigned chat is offered
 * to auto-assign. Keep the two in step when a tag change gains a side effect.
 * Null (no row, or the statement failed) sends the caller down the full path, which answers
 * precisely: 2010/2031, or, when only the read part is broken, the update committed and 4108.
 */
async function setTagsOnly(db: Db, input: { accountId: number; chatId: string; teamId: number; tags: string[] }): Promise<Chat | null> {
  let row: Awaited<ReturnType<ReturnType<typeof setTagsStatement>['execute']>>[number] | undefined;
  try {
    [row] = await setTagsStatement(db).execute({ ...input, tags: [...new Set(input.tags)], now: new Date() });
  } catch (err) {
    // Logged, so a statement broken by a schema change is seen rather than just slower.
    logger.warn('tags-only update failed; taking the full path', { chatId: input.chatId, err });
    return null;
  }
  return row ? toChatView(row.view) : null;
}

const setTagsStatement = prepared('chat_set_tags', (db: Db) => {
  const updated = db.$with('updated').as(
    db
      .update(chats)
      // Placeholders in `set` go through the column's encoder (text[] literal, ISO timestamp).
      .set({ tags: sql.placeholder('tags') as unknown as string[], updatedAt: sql.placeholder('now') as unknown as Date })
      .where(
        and(
          eq(chats.id, sql.placeholder('chatId')),
          eq(chats.accountId, sql.placeholder('accountId')),
          eq(chats.teamId, sql.placeholder('teamId')),
          or(ne(chats.status, 'queued'), isNotNull(chats.assigneeId)),
        ),
      )
      .returning(),
  );
  // The chat view as one JSON value, shaped as chat-view.ts's relational read (toChatView maps both).
  return db
    .with(updated)
    .select({
      view: sql<ChatViewRow>`json_build_object(
        'id', ${updated.id}, 'aliasId', ${updated.aliasId}, 'teamId', ${updated.teamId}, 'skill', ${updated.skill},
        'createdAt', ${updated.createdAt}, 'updatedAt', ${updated.updatedAt}, 'status', ${updated.status},
        'channel', ${updated.channel}, 'subject', ${updated.subject}, 'threadId', ${updated.threadId},
        'browserFingerprint', ${updated.browserFingerprint}, 'flag', ${updated.flag}, 'tags', ${updated.tags},
        'otherDetails', ${updated.otherDetails}, 'outcome', ${updated.outcome},
        'team', json_build_object('name', ${teams.name}),
        'asset', json_build_object('id', ${assets.id}, 'name', ${assets.name}, 'address', ${assets.address}),
        'customer', json_build_object('id', ${customers.id}, 'destinationId', ${customers.destinationId}, 'name', ${customers.name}),
        'assignee', case when ${users.id} is null then null else json_build_object('loginId', ${users.loginId}) end,
        'messages', ${latestMessagesJson(updated.id)})`,
    })
    .from(updated)
    .innerJoin(teams, eq(teams.id, updated.teamId))
    .innerJoin(assets, eq(assets.id, updated.assetId))
    .innerJoin(customers, eq(customers.id, updated.customerId))
    .leftJoin(users, eq(users.id, updated.assigneeId));
});

function isTagsOnly(patch: UpdateChatBody): patch is UpdateChatBody & { tags: string[] } {
  return patch.tags !== undefined && UPDATABLE.every((k) => k === 'tags' || patch[k] === undefined);
}
