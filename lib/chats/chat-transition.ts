import type { ChatStatus } from '@/contracts/enums';
import type { UnassignReason } from '@/lib/events/enqueue-event';
import type { Handback } from '@/lib/handovers/mark-handed-back';
import { ApiError } from '@/platform/errors';
import { type Assignee, teamForAssignee } from './assignment';

/** What the rules need of a chat as it is now. */
export type ChatState = { status: ChatStatus; assigneeId: number | null; teamId: number; outcome: string | null };

/**
 * A requested change: `assignee` is the resolved user (undefined: not sent; null: unassign),
 * `outcome` is only accepted with `status: closed`. `actorUserId` is who makes it (a VA through
 * the bot API; null or absent: an administrator).
 */
export type ChatChange = { status?: ChatStatus; assignee?: Assignee | null; outcome?: string; actorUserId?: number | null };

/**
 * An event a chat change causes, for one user. Written in this order by `emitChatEvents`, which
 * keeps only those for an enabled VA subscribed to the type (enqueueEvent).
 */
export type PlannedChatEvent =
  | { type: 'chat.assigned'; to: number; handback?: Handback }
  | { type: 'chat.closed'; to: number; outcome: string | null }
  | { type: 'chat.unassigned'; to: number; reason: UnassignReason; assignee: string | null };

/** What a chat change tells the VAs: whose waiting events it drops, and the events it emits. */
export type ChatEventPlan = {
  /**
   * The user the chat left: its events of the chat still waiting to be sent are superseded (not
   * the one in flight, see supersede-pending-events.ts). Null: nobody's.
   */
  supersedeFor: number | null;
  events: PlannedChatEvent[];
};

export type ChatTransition = {
  status: ChatStatus;
  assigneeId: number | null;
  teamId: number;
  outcome: string | null;
  /** `set`: the chat closes now; `clear`: it reopens; `keep`: closedAt stays as it is. */
  closedAt: 'set' | 'clear' | 'keep';
  /** A user who takes the chat by this change (a VA receives `chat.assigned`). */
  newlyAssigned: Assignee | null;
  /** The user to tell `chat.closed` (the assignee of a chat that closes now). */
  closedFor: number | null;
  /** The chat waits in its team's queue, unassigned: offer it to auto-assign. */
  offerToQueue: boolean;
  /** The user whose seat this change frees, and why (for `chat.unassigned` and `fillFreeSeats`). */
  released: { userId: number; reason: UnassignReason } | null;
} & ChatEventPlan;

/**
 * The status and assignee rules of PATCH /chats/{id}, with no I/O:
 * - a new assignee takes the chat (status `picked` unless another is sent), moving it to the
 *   assignee's team when it is not a member of the current one; a closed chat must be reopened
 *   with a status in the same change (2040);
 * - `assignee: null` or `status: queued` puts the chat back in its team's queue, unassigned
 *   (a closed chat unassigned without a status stays closed);
 * - `status: closed` closes it with `outcome`; leaving `closed` reopens it and clears the outcome;
 * - any other status is taken as sent.
 * And what it tells the VAs, in order: a VA that takes the chat gets `chat.assigned`; the assignee
 * of a chat that closes now gets `chat.closed`; a user the chat leaves loses control (lostControl).
 */
export function transitionChat(chat: ChatState, change: ChatChange): ChatTransition {
  checkOutcome(change);
  let status = change.status ?? chat.status;
  let assigneeId = chat.assigneeId;
  let teamId = chat.teamId;
  const newlyAssigned = change.assignee && change.assignee.id !== chat.assigneeId ? change.assignee : null;
  if (change.assignee === null || change.status === 'queued') {
    assigneeId = null;
    if (change.status === undefined && chat.status !== 'closed') status = 'queued';
  }
  if (newlyAssigned) {
    if (chat.status === 'closed' && change.status === undefined) {
      throw new ApiError(2040, { detail: 'reopen it with a status to assign it' });
    }
    assigneeId = newlyAssigned.id;
    teamId = teamForAssignee(newlyAssigned, chat.teamId) ?? chat.teamId;
    if (change.status === undefined) status = 'picked';
  }
  if (change.status === 'queued') assigneeId = null;

  let closedAt: ChatTransition['closedAt'] = 'keep';
  let outcome = chat.outcome;
  if (status === 'closed' && chat.status !== 'closed') {
    closedAt = 'set';
    outcome = change.outcome ?? null;
  } else if (status === 'closed' && change.outcome !== undefined) {
    outcome = change.outcome;
  } else if (status !== 'closed' && chat.status === 'closed') {
    closedAt = 'clear';
    outcome = null;
  }

  const previous = chat.assigneeId;
  const freed = previous !== null && chat.status !== 'closed' && (assigneeId !== previous || status === 'closed');
  const released: ChatTransition['released'] = freed
    ? { userId: previous, reason: status === 'closed' ? 'closed' : assigneeId !== null ? 'reassigned' : 'requeued' }
    : null;
  const closedFor = closedAt === 'set' ? assigneeId : null;

  const events: PlannedChatEvent[] = [];
  if (newlyAssigned?.kind === 'virtual_agent') events.push({ type: 'chat.assigned', to: newlyAssigned.id });
  if (closedFor !== null) events.push({ type: 'chat.closed', to: closedFor, outcome });
  const lost = released
    ? lostControl({
        previousAssigneeId: released.userId,
        actorUserId: change.actorUserId ?? null,
        reason: released.reason,
        newAssignee: newlyAssigned?.loginId ?? null,
      })
    : { supersedeFor: null, events: [] };
  return {
    status,
    assigneeId,
    teamId,
    outcome,
    closedAt,
    newlyAssigned,
    closedFor,
    offerToQueue: status === 'queued' && assigneeId === null,
    released,
    supersedeFor: lost.supersedeFor,
    events: [...events, ...lost.events],
  };
}

/**
 * A chat leaves its assignee (transferred, reassigned, re-queued or closed, by anyone, by the
 * bot-down fallback or by disabling the VA). For a VA: its events of the chat still waiting are
 * superseded (the chat is no longer its to answer, and it hears nothing more of it until it holds
 * it again), and it receives `chat.unassigned`, even when the change was its own, so a bot can stop
 * on that one event whatever the cause. The one exception is a VA closing the chat itself, which
 * gets `chat.closed` and nothing more.
 */
export function lostControl({
  previousAssigneeId,
  actorUserId,
  reason,
  newAssignee,
}: {
  previousAssigneeId: number;
  actorUserId: number | null;
  reason: UnassignReason;
  newAssignee: string | null;
}): ChatEventPlan {
  const closedItself = reason === 'closed' && actorUserId === previousAssigneeId;
  return {
    supersedeFor: previousAssigneeId,
    events: closedItself ? [] : [{ type: 'chat.unassigned', to: previousAssigneeId, reason, assignee: newAssignee }],
  };
}

/** 2000 for an `outcome` sent without `status: closed`; needs nothing of the chat, so callers can check it first. */
export function checkOutcome(change: Pick<ChatChange, 'status' | 'outcome'>): void {
  if (change.outcome !== undefined && change.status !== 'closed') {
    throw new ApiError(2000, {
      detail: 'outcome is only accepted with status closed',
      errors: [{ field: 'outcome', message: 'requires status: closed' }],
    });
  }
}
