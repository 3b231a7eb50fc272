import { sql } from 'drizzle-orm';
import { chatHandovers } from '@/db/schema';

/**
 * SQL for "the chat is with people by a standing handover": its latest handover (its latest
 * `chat_handovers` row: a VA's transfer or re-queue, the person request, the bot-down fallback,
 * the reply budget, a VA naming a person or a person taking the chat over) has not been handed
 * back. While it stands, auto-assign and seat filling give the chat to people only; a person's
 * hand-back to the VA closes it (`handed_back_at`), and the chat is open to VAs again.
 * Reads `chat_handovers_chat_idx`; `chatId` is a value or a column (a correlated sub-select).
 */
export function handedToPeople(chatId: unknown) {
  return sql<boolean>`coalesce((select ${chatHandovers.handedBackAt} is null from ${chatHandovers} where ${chatHandovers.chatId} = ${chatId} order by ${chatHandovers.id} desc limit 1), false)`;
}
