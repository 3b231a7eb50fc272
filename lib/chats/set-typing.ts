import { eq, sql } from 'drizzle-orm';
import type { TypingInput } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { ApiError, describeFields, type FieldError } from '@/platform/errors';
import { lockChat } from './lock-chat';
import { requireHeld } from './require-held';

const DEFAULT_TYPING_SECONDS = 10;

export type TypingState = { on: boolean; expires_at: string | null; status_text: string | null; shown_to_customer: boolean };

/** Livechat is the one channel whose customer sees typing (the widget); on the others agents and admins see it. */
function showsTypingToCustomer(channel: string): boolean {
  return channel === 'livechat';
}

/**
 * The VA holding the chat shows, refreshes or clears its typing indicator. Two columns of the chat
 * row hold it; whether it is on is decided when it is read (`typing_until` in the future), so no
 * sweep is needed. Typing pauses the reply budget: the clock's deadline moves by exactly the typing
 * time added or taken back (reply-clock.ts).
 */
export async function setTyping(
  db: Db,
  { accountId, chatId, actorUserId, input }: { accountId: number; chatId: string; actorUserId: number | null; input: TypingInput },
): Promise<TypingState> {
  if (!input.on) {
    const errors: FieldError[] = [];
    if (input.ttl_seconds !== undefined) errors.push({ field: 'ttl_seconds', message: 'only with on: true' });
    if (input.status_text !== undefined) errors.push({ field: 'status_text', message: 'only with on: true' });
    if (errors.length) throw new ApiError(2000, { detail: describeFields(errors), errors });
  }
  return withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    if (chat.status === 'closed') throw new ApiError(2040, { detail: 'a closed chat shows no typing' });
    requireHeld(chat, actorUserId);
    const now = new Date();
    const until = input.on ? new Date(now.getTime() + (input.ttl_seconds ?? DEFAULT_TYPING_SECONDS) * 1000) : null;
    const statusText = input.on ? (input.status_text ?? null) : null;
    const at = now.toISOString();
    const end = (until ?? now).toISOString();
    await tx
      .update(chats)
      .set({
        typingUntil: until,
        typingStatus: statusText,
        // Paused while typing: the deadline moves by the typing time this call adds (or takes back).
        replyDueAt: sql`${chats.replyDueAt} + (${end}::timestamptz - greatest(coalesce(${chats.typingUntil}, ${at}::timestamptz), ${at}::timestamptz))`,
      })
      .where(eq(chats.id, chat.id));
    // The chat's live views (the widget, the admin chat page, the agent workspace) show it at once.
    noteChatChange(tx, chatId, accountId, { kind: 'typing', on: until !== null, statusText, expiresAt: until });
    return {
      on: until !== null,
      expires_at: until?.toISOString() ?? null,
      status_text: statusText,
      shown_to_customer: showsTypingToCustomer(chat.channel),
    };
  });
}
