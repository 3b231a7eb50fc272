import { and, eq, fillPlaceholders, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Chat, UpdateChatBody } from '@/contracts/bot/schemas/chat';
import { OTHER_DETAILS_KEYS_MESSAGE, OTHER_DETAILS_MAX_KEYS } from '@/contracts/common';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { assignQueuedChat, fillFreeSeats } from '@/lib/chats/auto-assign';
import { withOutbox } from '@/lib/events/with-outbox';
import { requireUnderLoopLimit } from '@/lib/handovers/loop-limit';
import { markHandedBack } from '@/lib/handovers/mark-handed-back';
import { recordHandover } from '@/lib/handovers/record-handover';
import { ApiError } from '@/platform/errors';
import { logger } from '@/platform/util/logger';
import { prepared } from '@/platform/util/prepared';
import { actorLabel, announceHandover } from './announce-handover';
import { type Assignee, resolveAssignee } from './assignment';
import { checkOutcome, transitionChat } from './chat-transition';
import { loadChatOrFail, selectChatView, toChatView } from './chat-view';
import { dropNulls } from './create-chat';
import { emitChatEvents } from './emit-chat-events';
import { eventChatOf, lockChat, requireTeam } from './lock-chat';
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
  /** A person's note for the VA the chat goes back to (the workspace's hand-back), carried by its chat.assigned. */
  handbackNote?: string | null;
};

const UPDATABLE = ['alias_id', 'tags', 'add_tags', 'remove_tags', 'status', 'assignee', 'outcome', 'other_details', 'handover'] as const;

/** The most tags a chat carries (the `tags` array's own limit). */
const MAX_TAGS = 50;

/**
 * PATCH /chats/{chat_id}. The `team_id` header must name the chat's current team (2010 when the
 * account has no such team, 2031 when the chat is elsewhere). The status and assignee rules are
 * `transitionChat`'s, and so are the events (a VA that takes the chat receives `chat.assigned`, the
 * assignee of a chat that closes receives `chat.closed`, a VA that loses the chat receives
 * `chat.unassigned` and its waiting events of the chat are superseded), written by
 * `emitChatEvents`; then a chat back in the queue is offered to auto-assign and a freed seat to
 * the queue. A VA may change
 * only a chat it holds, or take an unassigned chat by naming itself as `assignee` (2043 otherwise).
 */
export async function updateChat(
  db: Db,
  { accountId, chatId, teamId, patch, actorUserId, actorLoginId, handbackNote }: UpdateChatInput,
): Promise<Chat> {
  if (!UPDATABLE.some((k) => patch[k] !== undefined)) {
    throw new ApiError(2000, {
      detail: `send at least one of ${UPDATABLE.join(', ')}`,
      errors: [{ field: '(body)', message: 'no updatable field' }],
    });
  }
  checkOutcome(patch);
  checkTagChanges(patch);
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
    const next = transitionChat(chat, { status: patch.status, assignee, outcome: patch.outcome, actorUserId });

    const now = new Date();
    // The loop limit, and what a chat coming back to a VA tells it (the hand-back's note and messages).
    const toVa = next.newlyAssigned?.kind === 'virtual_agent' ? next.newlyAssigned : null;
    if (toVa) {
      await requireUnderLoopLimit(tx, { chatId: chat.id, va: toVa });
      const handback = await markHandedBack(tx, {
        chatId: chat.id,
        vaUserId: toVa.id,
        by: actorLabel(actorLoginId),
        note: handbackNote ?? null,
        at: now,
      });
      if (handback) for (const e of next.events) if (e.type === 'chat.assigned' && e.to === toVa.id) e.handback = handback;
    }
    // A VA's chat going to people is a handover: with the context sent now, or prepared before.
    const handedOver = next.released !== null && next.released.reason !== 'closed' && !toVa;
    if (handedOver) {
      await recordHandover(tx, {
        accountId,
        chat,
        previousAssigneeId: next.released?.userId ?? null,
        source: next.newlyAssigned ? 'assignee' : 'transfer',
        context: patch.handover,
        at: now,
      });
    }
    const set: Partial<typeof chats.$inferInsert> = {
      updatedAt: now,
      status: next.status,
      assigneeId: next.assigneeId,
      teamId: next.teamId,
      outcome: next.outcome,
    };
    // Auto-assign's mark goes with any other assignment, and once the assignee changes the chat
    // itself (it heard of the chat: no re-route away from it, reroute-chat.ts).
    if (next.assigneeId !== chat.assigneeId || (actorUserId != null && actorUserId === chat.assigneeId)) set.autoAssigned = false;
    if (next.closedAt !== 'keep') set.closedAt = next.closedAt === 'set' ? now : null;
    if (next.offerToQueue && !(chat.status === 'queued' && chat.assigneeId === null)) {
      set.queuedAt = now;
      set.queueReason = 'requeued';
    }
    if (patch.alias_id !== undefined) set.aliasId = patch.alias_id;
    // Sent without a handover: kept for the chat's next one (a fallback, the reply budget, a person taking over).
    if (patch.handover !== undefined && !handedOver) set.handoverContext = patch.handover;
    if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)];
    // Under the chat's lock: a concurrent add or remove waits, so neither loses the other's tags.
    if (patch.add_tags !== undefined || patch.remove_tags !== undefined) set.tags = changedTags(chat.tags, patch);
    if (patch.other_details !== undefined) {
      const merged = dropNulls({ ...chat.otherDetails, ...patch.other_details });
      // The limit holds for the chat, not only for one request: pairs merged in over several PATCHes.
      // A chat stored with more before the limit existed may still shed keys.
      const had = Object.keys(chat.otherDetails ?? {}).length;
      if (Object.keys(merged).length > Math.max(OTHER_DETAILS_MAX_KEYS, had)) {
        const message = `${OTHER_DETAILS_KEYS_MESSAGE} once merged with the chat's ${had}`;
        throw new ApiError(2000, { detail: `other_details: ${message}`, errors: [{ field: 'other_details', message }] });
      }
      set.otherDetails = merged;
    }
    await tx.update(chats).set(set).where(eq(chats.id, chat.id));

    if (next.newlyAssigned || next.released?.reason === 'requeued') {
      const text = next.newlyAssigned ? `Assigned to ${next.newlyAssigned.loginId}` : 'Returned to the queue';
      await announceHandover(tx, { accountId, chatId: chat.id, text: `${text} by ${actorLabel(actorLoginId)}.`, at: now });
    }

    // What the change tells the VAs, as transitionChat decided it. Lost control is told before
    // auto-assign runs, so the chat's events read "unassigned, assigned", the order things
    // happened, whoever auto-assign picks (never the VA the chat just left: closed-to-va.ts).
    await emitChatEvents(tx, {
      accountId,
      chat: eventChatOf({ ...chat, teamId: next.teamId }),
      sequenceBefore: chat.eventSeq,
      plan: next,
      at: now,
    });
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
  return loadChatOrFail(db, { accountId, chatId }, { afterWrite: true });
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
async function setTagsOnly(db: Db, input: Omit<SetTagsInput, 'now'>): Promise<Chat | null> {
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

type SetTagsInput = { accountId: number; chatId: string; teamId: number; tags: string[]; actorUserId: number | null; now: Date };

const setTagsStatement = prepared('chat_set_tags', (db: Db) => setTagsQuery(db));

/**
 * The tags-only statement as SQL text and its parameters in order, for bench:api's case (j): a bare
 * server (bench/baseline-server.ts) that answers the same chat with the same statement.
 */
export function tagsOnlyStatement(db: Db): { sql: string; params: (input: SetTagsInput) => unknown[] } {
  const query = setTagsQuery(db).toSQL();
  return {
    sql: query.sql,
    params: (input) => fillPlaceholders(query.params, input),
  };
}

const setTagsQuery = (db: Db) =>
  selectChatView(
    db,
    db.$with('updated').as(
      db
        .update(chats)
        // Placeholders in `set` go through the column's encoder (text[] literal, ISO timestamp).
        // A VA tagging its chat heard of it: auto-assign's mark goes (reroute-chat.ts).
        .set({
          tags: sql.placeholder('tags') as unknown as string[],
          updatedAt: sql.placeholder('now') as unknown as Date,
          autoAssigned: sql`${chats.autoAssigned} and ${sql.placeholder('actorUserId')}::int is null`,
        })
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
  );

/** `tags` replaces, `add_tags`/`remove_tags` change: one form per request, and no tag both added and removed (2017). */
function checkTagChanges(patch: UpdateChatBody): void {
  const changes = patch.add_tags !== undefined || patch.remove_tags !== undefined;
  if (patch.tags !== undefined && changes) {
    const field = patch.add_tags !== undefined ? 'add_tags' : 'remove_tags';
    throw new ApiError(2017, {
      detail: `tags together with ${field}`,
      errors: [{ field: 'tags', message: `send either tags (replaces all) or ${field} (changes some), not both` }],
    });
  }
  const removed = new Set(patch.remove_tags ?? []);
  const both = (patch.add_tags ?? []).filter((t) => removed.has(t));
  if (both.length) {
    throw new ApiError(2017, {
      detail: `${both.join(', ')} both added and removed`,
      errors: both.map((t) => ({ field: 'add_tags', message: `${t} is also in remove_tags` })),
    });
  }
}

/** The chat's tags with `remove_tags` taken off and `add_tags` appended (each once, existing order kept). */
function changedTags(current: string[], patch: UpdateChatBody): string[] {
  const removed = new Set(patch.remove_tags ?? []);
  const next = new Set(current.filter((t) => !removed.has(t)));
  for (const t of patch.add_tags ?? []) next.add(t);
  if (next.size > MAX_TAGS) {
    throw new ApiError(2000, {
      detail: `add_tags (a chat carries at most ${MAX_TAGS} tags; it would carry ${next.size})`,
      errors: [{ field: 'add_tags', message: `a chat carries at most ${MAX_TAGS} tags` }],
    });
  }
  return [...next];
}

function isTagsOnly(patch: UpdateChatBody): patch is UpdateChatBody & { tags: string[] } {
  return patch.tags !== undefined && UPDATABLE.every((k) => k === 'tags' || patch[k] === undefined);
}
