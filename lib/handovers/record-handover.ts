import { eq } from 'drizzle-orm';
import type { HandoverContext } from '@/contracts/bot/schemas/handover';
import type { Db } from '@/db/client';
import { chatHandovers, chats, users } from '@/db/schema';

export type HandoverSource = (typeof chatHandovers.$inferInsert)['source'];

/**
 * Records that a chat left a virtual agent for people (nothing when `previousAssigneeId` is not a
 * VA), with the context given now (`context`), each part of it falling back to what the bot prepared
 * ahead on the chat (`chats.handover_context`, then cleared). The latest row is the workspace's
 * card; the VA's rows of the chat are its loop count (loop-limit.ts). Runs in the change's
 * transaction, under the chat's lock.
 */
export async function recordHandover(
  tx: Db,
  {
    accountId,
    chat,
    previousAssigneeId,
    source,
    context,
    at,
  }: {
    accountId: number;
    chat: { id: string; handoverContext: Record<string, unknown> | null };
    previousAssigneeId: number | null;
    source: HandoverSource;
    context?: HandoverContext | null;
    at: Date;
  },
): Promise<void> {
  if (previousAssigneeId === null) return;
  const [from] = await tx.select({ kind: users.kind }).from(users).where(eq(users.id, previousAssigneeId));
  if (from?.kind !== 'virtual_agent') return;
  const prepared = (chat.handoverContext ?? {}) as HandoverContext;
  const given = context ?? {};
  await tx.insert(chatHandovers).values({
    accountId,
    chatId: chat.id,
    vaUserId: previousAssigneeId,
    source,
    reason: given.reason ?? prepared.reason ?? null,
    summary: given.summary ?? prepared.summary ?? null,
    intent: given.intent ?? prepared.intent ?? null,
    fields: { ...(prepared.fields ?? {}), ...(given.fields ?? {}) },
    createdAt: at,
  });
  if (chat.handoverContext !== null) await tx.update(chats).set({ handoverContext: null }).where(eq(chats.id, chat.id));
}
