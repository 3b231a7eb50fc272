import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, virtualAgents } from '@/db/schema';
import { withOutbox } from '@/lib/events/with-outbox';
import { pokeTurnCloser } from '@/lib/turns/turn-closer';
import { CUSTOMER_TYPING_TTL_MS, capOf, dueOf } from '@/lib/turns/turn-rules';
import { ApiError } from '@/platform/errors';
import { lockChat } from './lock-chat';

/**
 * The widget says whether the customer is typing. Kept on the chat (it lapses after
 * CUSTOMER_TYPING_TTL_MS unless refreshed) and, when the VA holding the chat has a turn open, it
 * moves the turn's close: typing holds it while the signal lives (never past the cap), stopping closes
 * it at once. Under the chat's lock, as a fragment would be.
 */
export async function setCustomerTyping(
  db: Db,
  { accountId, chatId, typing }: { accountId: number; chatId: string; typing: boolean },
): Promise<{ typing: boolean }> {
  const moved = await withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    if (chat.status === 'closed') throw new ApiError(2040, { detail: 'this chat has ended' });
    const now = new Date();
    await tx
      .update(chats)
      .set({ customerTypingUntil: typing ? new Date(now.getTime() + CUSTOMER_TYPING_TTL_MS) : null })
      .where(eq(chats.id, chatId));
    if (chat.assigneeId === null) return false;
    const [va] = await tx
      .select({ windowMs: virtualAgents.turnWindowMs, capMs: virtualAgents.turnWindowMaxMs, onNewTurn: virtualAgents.onNewTurn })
      .from(virtualAgents)
      .where(eq(virtualAgents.userId, chat.assigneeId));
    if (!va || va.windowMs === 0) return false;
    // The cap stands whatever the window says; the due time only moves by what typing decides.
    // "Stopped" is the channel's own verdict (the widget waits for a key after a send before saying
    // it): the turn closes now. Typing holds it while the signal lives.
    const due = typing ? dueOf({ now, capAt: new Date(now.getTime() + capOf(va)), windowMs: va.windowMs, typing }) : { at: now };
    const at = due.at.toISOString();
    const result = await tx.execute(sql`
      update events e set
        held_until = least(e.held_cap_at, ${typing ? sql`greatest(e.held_until, ${at}::timestamptz)` : sql`least(e.held_until, ${at}::timestamptz)`}),
        turn_closed_by = case when ${typing ? sql`greatest(e.held_until, ${at}::timestamptz)` : sql`least(e.held_until, ${at}::timestamptz)`} >= e.held_cap_at
          then 'cap' else ${typing ? 'window' : 'typing'} end,
        updated_at = now()
      where e.id = (select l.id from events l where l.chat_id = ${chatId} and l.virtual_agent_id = ${chat.assigneeId}
          order by l.seq desc limit 1)
        and e.held_until is not null and e.status = 'pending' and e.held_until > clock_timestamp()
      returning e.id`);
    return (Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0)) > 0;
  });
  if (moved) pokeTurnCloser();
  return { typing };
}
