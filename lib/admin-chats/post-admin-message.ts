import type { MessageInput } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { appendMessage } from '@/lib/chats/append-message';
import { ApiError } from '@/platform/errors';

/**
 * An admin appends a customer message (to try a bot: the assigned VA gets `message.received`) or
 * an announcement, written by `admin:<email>` so it is never mistaken for a user's login ID.
 */
export async function postAdminMessage(
  db: Db,
  {
    accountId,
    chatId,
    adminEmail,
    input,
  }: { accountId: number; chatId: string; adminEmail: string; input: MessageInput & { type: 'inbound' | 'announcement' } },
) {
  try {
    const { message } = await appendMessage(db, { accountId, chatId, actorLoginId: `admin:${adminEmail}`, input });
    return message;
  } catch (err) {
    // The admin API's one word for "not in your account" is 3006.
    if (err instanceof ApiError && err.code === 2031) throw new ApiError(3006, { detail: `no chat ${chatId}` });
    throw err;
  }
}
