import { env } from '@/env';
import type { CloseReason } from '@/lib/events/held-events';

/** The cap when `turn_window_max_ms` is not set. */
const DEFAULT_TURN_CAP_MS = 10_000;

/** A widget's "typing" holds this long unless refreshed (a closed tab stops refreshing it). */
export const CUSTOMER_TYPING_TTL_MS = 6_000;

/**
 * What the turn rules read of a chat locked for a change (lib/chats' LockedChat has it all): the VA
 * holding it, its latest turn and the bot's typing.
 */
export type TurnChat = { id: string; assigneeId: number | null; turnId: string | null; typingUntil: Date | null };

export type TurnSettings = { windowMs: number; capMs: number | null; onNewTurn: 'continue' | 'supersede' };

/** The cap of a turn (never below its window). */
export function capOf(settings: TurnSettings): number {
  return Math.max(settings.windowMs, settings.capMs ?? DEFAULT_TURN_CAP_MS);
}

/**
 * When an open turn closes, decided afresh at each fragment and each typing signal: `window` after the
 * last fragment, sooner when the channel says the customer is not typing (`typing` false: a short
 * grace), never after the cap. While the customer types (`typing` true) it stays open for as long as
 * the typing signal lives (the widget refreshes it every 3 s, so a window shorter than that would
 * close under a customer still typing), or the window if longer. `typing` undefined: the channel has
 * no typing signal.
 */
export function dueOf({ now, capAt, windowMs, typing }: { now: Date; capAt: Date; windowMs: number; typing: boolean | undefined }): {
  at: Date;
  by: Exclude<CloseReason, 'event'>;
} {
  // After a message from a customer not typing, the turn waits TURN_NOT_TYPING_GRACE_MS for typing to
  // start again: a burst typist resumes within it; a lone message reaches the bot this much later.
  const wait =
    typing === false ? Math.min(env().TURN_NOT_TYPING_GRACE_MS, windowMs) : typing ? Math.max(windowMs, CUSTOMER_TYPING_TTL_MS) : windowMs;
  const at = now.getTime() + wait;
  if (at >= capAt.getTime()) return { at: capAt, by: 'cap' };
  return { at: new Date(at), by: typing === false ? 'typing' : 'window' };
}
