import { ApiError } from '@/platform/errors';

/**
 * A VA writes outbound messages, changes and transfers only on chats it holds (2043 otherwise), so
 * a bot that lost a chat (handed over, taken by the fallback, reassigned) cannot talk into it.
 * `actorUserId` null is the service or an administrator: not restricted.
 */
export function requireHeld(chat: { id: string; assigneeId: number | null }, actorUserId: number | null): void {
  if (actorUserId !== null && chat.assigneeId !== actorUserId) throw notHeld(chat.id, chat.assigneeId === null);
}

/**
 * The refusal says what the bot can do about it: an unassigned chat can be taken, one assigned to
 * someone else is theirs (who: GET /chats/{id}, open to every VA of the account).
 */
export function notHeld(chatId: string, unassigned = false): ApiError {
  return new ApiError(2043, {
    detail: unassigned
      ? `chat ${chatId} is unassigned (waiting in its team's queue); a VA takes it by PATCH /chats/${chatId} naming itself as assignee`
      : `chat ${chatId} is assigned to someone else (GET /chats/${chatId} shows who); after chat.unassigned, stop writing to it`,
  });
}
