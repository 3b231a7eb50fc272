import type { ChatStatus } from '@/contracts/enums';
import { ApiError } from '@/lib/errors';
import type { UnassignReason } from '@/lib/events/enqueue-event';
import { type Assignee, teamForAssignee } from './assignment';

/** What the rules need of a chat as it is now. */
export type ChatState = { status: ChatStatus; assigneeId: number | null; teamId: number; outcome: string | null };

/**
 * A requested change: `assignee` is the resolved user (undefined: not sent; null: unassign),
 * `outcome` is only accepted with `status: closed`.
 */
export type ChatChange = { status?: ChatStatus; assignee?: Assignee | null; outcome?: string };

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
};

/**
 * The status and assignee rules of PATCH /chats/{id}, with no I/O:
 * - a new assignee takes the chat (status `picked` unless another is sent), moving it to the
 *   assignee's team when it is not a member of the current one; a closed chat must be reopened
 *   with a status in the same change (2040);
 * - `assignee: null` or `status: queued` puts the chat back in its team's queue, unassigned
 *   (a closed chat unassigned without a status stays closed);
 * - `status: closed` closes it with `outcome`; leaving `closed` reopens it and clears the outcome;
 * - any other status is taken as sent.
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
  return {
    status,
    assigneeId,
    teamId,
    outcome,
    closedAt,
    newlyAssigned,
    closedFor: closedAt === 'set' ? assigneeId : null,
    offerToQueue: status === 'queued' && assigneeId === null,
    released: freed ? { userId: previous, reason: status === 'closed' ? 'closed' : assigneeId !== null ? 'reassigned' : 'requeued' } : null,
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
