import { sql } from 'drizzle-orm';
import { chatHandovers } from '@/db/schema';

/**
 * SQL for "this VA may not be given the chat by auto-assign": the chat's latest handover (its latest
 * `chat_handovers` row) stands (not handed back) and either it was for people whoever holds
 * them (the customer's person request, the bot-down fallback, the reply budget, a VA naming a
 * person, a person taking over: no VA at all), or it was a transfer or re-queue away from this
 * very VA (`vaUserId`: the chat does not come straight back; another VA of the team the chat was
 * sent to may take it, as bot-to-bot transfers need). A person's hand-back closes the row
 * (`handed_back_at`). Reads `chat_handovers_chat_idx`; `chatId` and `vaUserId` are values or
 * columns (a correlated sub-select).
 */
export function closedToVa(chatId: unknown, vaUserId: unknown) {
  return sql<boolean>`coalesce((select ${chatHandovers.handedBackAt} is null and (${chatHandovers.source} <> 'transfer' or ${chatHandovers.vaUserId} = ${vaUserId}) from ${chatHandovers} where ${chatHandovers.chatId} = ${chatId} order by ${chatHandovers.id} desc limit 1), false)`;
}
