import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { newTraceId } from '@/platform/util/ids';

/**
 * Writes a handover into the transcript as an announcement (seen by agents and administrators,
 * never sent to a bot as customer text), so the admin chat page shows who moved the chat where:
 * "Transferred to Support by va-helper.".
 */
export async function announceHandover(
  tx: Db,
  { accountId, chatId, text, at }: { accountId: number; chatId: string; text: string; at: Date },
) {
  await tx
    .insert(messages)
    .values({ chatId, accountId, transid: newTraceId(), type: 'announcement', body: { text }, authorLoginId: null, sentAt: at });
}

/** How a handover names who did it. */
export function actorLabel(actorLoginId: string | null | undefined): string {
  return actorLoginId ?? 'an administrator';
}
