import { eq } from 'drizzle-orm';
import type { MessageType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import type { TurnChat } from './turn-rules';

/**
 * The turn an outbound message answers (`in_reply_to_turn`), checked under the chat's lock: the
 * chat's latest turn is accepted; an earlier (or unknown) one is refused with 2100 when the VA's
 * `on_new_turn` is `supersede`, and accepted and marked `stale` with `continue`. Only outbound
 * messages name a turn (2000 otherwise).
 */
export async function replyTurnOf(
  tx: Db,
  { chat, type, replyTo }: { chat: TurnChat; type: MessageType; replyTo: string | undefined },
): Promise<{ turnId?: string; stale?: boolean }> {
  if (replyTo === undefined) return {};
  if (type !== 'outbound') {
    throw new ApiError(2000, {
      detail: 'in_reply_to_turn: only outbound messages answer a turn',
      errors: [{ field: 'in_reply_to_turn', message: 'only on outbound messages' }],
    });
  }
  if (replyTo === chat.turnId) return { turnId: replyTo, stale: false };
  const [va] =
    chat.assigneeId === null
      ? []
      : await tx.select({ onNewTurn: virtualAgents.onNewTurn }).from(virtualAgents).where(eq(virtualAgents.userId, chat.assigneeId));
  if (va?.onNewTurn === 'supersede') {
    throw new ApiError(2100, {
      detail: chat.turnId
        ? `turn ${replyTo} is not the chat's latest (${chat.turnId}): the customer has written since; answer the latest turn`
        : `turn ${replyTo} is not a turn of this chat`,
      errors: [{ field: 'in_reply_to_turn', message: 'not the latest turn' }],
    });
  }
  return { turnId: replyTo, stale: true };
}

/** A chunk or close of a stream superseded by a newer turn or a takeover (2101). */
export function supersededStream(turnId: string | null | undefined): ApiError {
  return new ApiError(2101, {
    detail: `the customer has moved on${turnId ? ` from turn ${turnId}` : ''}: this reply was withdrawn; answer the latest turn`,
  });
}
