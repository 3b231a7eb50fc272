import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Chat, UpdateChatBody } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { withOutbox } from '@/lib/events/with-outbox';
import { assignQueuedChat, fillFreeSeats } from '@/lib/routing/auto-assign';
import { logger } from '@/lib/util/logger';
import { prepared } from '@/lib/util/prepared';
import { actorLabel, announceHandover } from './announce-handover';
import { type Assignee, lastMessageOf, resolveAssignee } from './assignment';
import { checkOutcome, transitionChat } from './chat-transition';
import { loadChatOrFail, selectChatView, toChatView } from './chat-view';
import { dropNulls } from './create-chat';
import { eventChatOf, lockChat, requireTeam } from './lock-chat';
import { notifyLostControl } from './notify-lost-control';
import { startReplyClockOnAssign } from './reply-clock';
import { requireHeld } from './require-held';

export type UpdateChatInput = {
  accountId: number;
  chatId: string;
  teamId: number;
  patch: UpdateChatBody;
  /** The user making the change (the VA, through the bot API), or null for an administrator. */
  actorUserId: number | null;
  /** The actor's login ID, named in the transcript's handover note. */
  actorLoginId?: string | null;
};

const UPDATABLE = ['alias_id', 'tags', 'status', 'assignee', 'outcome', 'other_details'] as const;

/**
 * PATCH /chats/{chat_id}. The `team_id` header must name the chat's current team (2010 when the
 * account has no such team, 2031 when the chat is elsewhere). The status and assignee rules are
 * `transitionChat`'s; this applies what it decides: a VA that takes the chat receives
 * `chat.assigned`, the assignee of a chat that closes receives `chat.closed`, a chat back in the
 * queue is offered to auto-assign, a freed seat is offered to the queue, and a VA that loses the
 * chat receives `chat.unassigned` (its waiting events of the chat are superseded). A VA may change
 * only a chat it holds, or take an unassigned chat by naming itself as `assignee` (2043 otherwise).
 */
export async function updateChat(db: Db, { accountId, chatId, teamId, patch, actorUserId, actorLoginId }: UpdateChatInput): Promise<Chat> {
  if (!UPDATABLE.some((k) => patch[k] !== undefined)) {
    throw new ApiError(2000, {
      detail: `send at least one of ${UPDATABLE.join(', ')}`,
      errors: [{ field: '(body)', message: 'no updatable field' }],
    });
  }
  checkOutcome(patch);
  if (isTagsOnly(patch)) {
    const chat = await setTagsOnly(db, { accountId, chatId, teamId, tags: patch.tags, actorUserId });
    if (chat) return chat;
  }
  await withOutbox(db, async (tx) => {
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

    let assignee: Assignee | null | undefined;
    if (patch.assignee === null) assignee = null;
    else if (patch.assignee !== undefined) assignee = await resolveAssignee(tx, { accountId, loginId: patch.assignee });
    // A VA changes only the chats it holds, or takes an unassigned one for itself.
    const takesFreeChat = chat.assigneeId === null && assignee?.id === actorUserId;
    if (!takesFreeChat) requireHeld(chat, actorUserId);
    const next = transitionChat(chat, { status: patch.status, assignee, outcome: patch.outcome });

    const now = new Date();
    const set: Partial<typeof chats.$inferInsert> = {
      updatedAt: now,
      status: next.status,
      assigneeId: next.assigneeId,
      teamId: next.teamId,
      outcome: next.outcome,
    };
    if (next.closedAt !== 'keep') set.closedAt = next.closedAt === 'set' ? now : null;
    if (patch.alias_id !== undefined) set.aliasId = patch.alias_id;
    if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)];
    if (patch.other_details !== undefined) set.otherDetails = dropNulls({ ...chat.otherDetails, ...patch.other_details });
    await tx.update(chats).set(set).where(eq(chats.id, chat.id));

    if (next.newlyAssigned || next.released?.reason === 'requeued') {
      const text = next.newlyAssigned ? `Assigned to ${next.newlyAssigned.loginId}` : 'Returned to the queue';
      await announceHandover(tx, { accountId, chatId: chat.id, text: `${text} by ${actorLabel(actorLoginId)}.`, at: now });
    }

    const moved = { ...chat, teamId: next.teamId };
    const eventChat = eventChatOf(moved);
    if (next.newlyAssigned?.kind === 'virtual_agent') {
      const lastMessage = await lastMessageOf(tx, chat.id);
      await startReplyClockOnAssign(tx, { chatId: chat.id, lastMessage, now });
      await enqueueEvent(tx, {
        accountId,
        chat: eventChat,
        vaUserId: next.newlyAssigned.id,
        cause: { type: 'chat.assigned', lastMessage },
      });
    }
    if (next.closedFor !== null) {
      await enqueueEvent(tx, {
        accountId,
        chat: eventChat,
        vaUserId: next.closedFor,
        cause: { type: 'chat.closed', outcome: next.outcome, at: now },
      });
    }
    // Lost control is told before auto-assign runs: a chat re-queued and handed straight back to
    // the same VA then reads "unassigned, assigned", the order things happened, not the reverse.
    if (next.released) {
      await notifyLostControl(tx, {
        accountId,
        chat: moved,
        previousAssigneeId: next.released.userId,
        actorUserId,
        reason: next.released.reason,
        newAssignee: next.newlyAssigned?.loginId ?? null,
        at: now,
      });
    }
    if (next.offerToQueue) {
      await assignQueuedChat(tx, {
        accountId,
        chatId: chat.id,
        teamId: next.teamId,
        skill: chat.skill,
        releasingUserId: next.released?.userId ?? null,
      });
    }
    if (next.released) await fillFreeSeats(tx, { accountId, userId: next.released.userId });
  });
  return loadChatOrFail(db, { accountId, chatId });
}

/**
 * The common bot call, a tags-only change, as one prepared statement that also answers the chat:
 * no transaction (the row lock is the UPDATE's own), no lock query, no second read. The path above
 * would lock the row, rewrite the same status and assignee, emit nothing, then read the chat.
 * The WHERE clause holds that path's preconditions (the chat is in the header's team and held by
 * the VA making the change) and leaves to it every case where a tag change does more than write
 * tags: a queued, unassigned chat is offered to auto-assign. Keep the two in step when a tag change
 * gains a side effect. Null (no row, or the statement failed) sends the caller down the full path,
 * which answers precisely: 2010/2031/2043, or, when only the read part is broken, the update committed and 4108.
 */
async function setTagsOnly(
  db: Db,
  input: { accountId: number; chatId: string; teamId: number; tags: string[]; actorUserId: number | null },
): Promise<Chat | null> {
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

const setTagsStatement = prepared('chat_set_tags', (db: Db) =>
  selectChatView(
    db,
    db.$with('updated').as(
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
            sql`(${sql.placeholder('actorUserId')}::int is null or ${chats.assigneeId} = ${sql.placeholder('actorUserId')}::int)`,
          ),
        )
        .returning(),
    ),
  ),
);

function isTagsOnly(patch: UpdateChatBody): patch is UpdateChatBody & { tags: string[] } {
  return patch.tags !== undefined && UPDATABLE.every((k) => k === 'tags' || patch[k] === undefined);
}
