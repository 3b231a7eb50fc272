import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chatHandovers } from '@/db/schema';
import { openHandover } from './loop-limit';

export type Handback = { by: string; note: string | null; heldSince: Date };

/**
 * The chat goes back to a VA that handed it to people: its open handover is closed with who gave
 * it back, when, and the note for the bot. Returns what the VA's `chat.assigned` tells it (the note,
 * and since when people held the chat, from which its messages are read), or null when the VA
 * has no open handover of the chat (it never held it, or it already came back).
 */
export async function markHandedBack(
  tx: Db,
  { chatId, vaUserId, by, note, at }: { chatId: string; vaUserId: number; by: string; note: string | null; at: Date },
): Promise<Handback | null> {
  const open = await openHandover(tx, { chatId, vaUserId });
  if (!open) return null;
  await tx.update(chatHandovers).set({ handedBackAt: at, handedBackBy: by, handbackNote: note }).where(eq(chatHandovers.id, open.id));
  return { by, note, heldSince: open.createdAt };
}
