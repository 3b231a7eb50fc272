import { and, desc, eq, sql } from 'drizzle-orm';
import type { HANDOVER_SOURCES, HandoverCard, HandoverContext } from '@/contracts/bot/schemas/handover';
import type { Db } from '@/db/client';
import { chatHandovers, users, virtualAgents } from '@/db/schema';

/**
 * The chat's latest handover from a virtual agent as people see it (workspace, console), with the
 * VA's loop count and limit; null when no VA ever handed it over. Reads `chat_handovers_chat_idx`.
 */
export async function loadHandoverCard(db: Db, { chatId }: { chatId: string }): Promise<HandoverCard | null> {
  const [row] = await db
    .select({
      source: chatHandovers.source,
      from: users.loginId,
      at: chatHandovers.createdAt,
      reason: chatHandovers.reason,
      summary: chatHandovers.summary,
      intent: chatHandovers.intent,
      fields: chatHandovers.fields,
      handedBackAt: chatHandovers.handedBackAt,
      handedBackBy: chatHandovers.handedBackBy,
      note: chatHandovers.handbackNote,
      max: virtualAgents.maxHandoversPerChat,
      count: sql<number>`(select count(*)::int from ${chatHandovers} h where h.chat_id = ${chatHandovers.chatId} and h.va_user_id = ${chatHandovers.vaUserId})`,
    })
    .from(chatHandovers)
    .innerJoin(users, eq(users.id, chatHandovers.vaUserId))
    .innerJoin(virtualAgents, eq(virtualAgents.userId, chatHandovers.vaUserId))
    .where(eq(chatHandovers.chatId, chatId))
    .orderBy(desc(chatHandovers.id))
    .limit(1);
  if (!row) return null;
  return {
    source: row.source,
    from: row.from,
    at: row.at.toISOString(),
    reason: row.reason,
    summary: row.summary,
    intent: row.intent,
    fields: row.fields,
    handovers: row.count,
    max_handovers: row.max,
    can_hand_back: row.count < row.max,
    handed_back: row.handedBackAt ? { at: row.handedBackAt.toISOString(), by: row.handedBackBy ?? '', note: row.note } : null,
  };
}

/**
 * The handover of the chat from this VA recorded at `at` (by the change being written), as its
 * `chat.unassigned` carries it; null when the change was no handover (a close, say).
 */
export async function handoverAt(
  tx: Db,
  { chatId, vaUserId, at }: { chatId: string; vaUserId: number; at: Date },
): Promise<(HandoverContext & { source: (typeof HANDOVER_SOURCES)[number] }) | null> {
  const [row] = await tx
    .select({
      source: chatHandovers.source,
      reason: chatHandovers.reason,
      summary: chatHandovers.summary,
      intent: chatHandovers.intent,
      fields: chatHandovers.fields,
    })
    .from(chatHandovers)
    .where(and(eq(chatHandovers.chatId, chatId), eq(chatHandovers.vaUserId, vaUserId), eq(chatHandovers.createdAt, at)))
    .orderBy(desc(chatHandovers.id))
    .limit(1);
  if (!row) return null;
  return {
    source: row.source,
    ...(row.reason !== null && { reason: row.reason }),
    ...(row.summary !== null && { summary: row.summary }),
    ...(row.intent !== null && { intent: row.intent }),
    fields: row.fields,
  };
}
