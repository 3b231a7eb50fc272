import { ApiError } from '@/lib/errors';

/**
 * A VA writes outbound messages, changes and transfers only on chats it holds (2043 otherwise), so
 * a bot that lost a chat (handed over, taken by the fallback, reassigned) cannot talk into it.
 * `actorUserId` null is the service or an administrator: not restricted.
 */
export function requireHeld(chat: { id: string; assigneeId: number | null }, actorUserId: number | null): void {
  if (actorUserId !== null && chat.assigneeId !== actorUserId) throw notHeld(chat.id);
}

export function notHeld(chatId: string): ApiError {
  return new ApiError(2043, { detail: `chat ${chatId}` });
}
