import { ApiError } from '@/platform/errors';

type TurnFields = { turn_window_ms?: number; turn_window_max_ms?: number | null; on_new_turn?: 'continue' | 'supersede' };
type TurnColumns = { turnWindowMs: number; turnWindowMaxMs: number | null; onNewTurn: 'continue' | 'supersede' };

/**
 * A VA's turn settings after a create or update body (admin API): what the body says over what the
 * VA has. A cap below the window is 2000 naming `turn_window_max_ms`.
 */
export function turnColumnsOf(body: TurnFields, current?: TurnColumns): TurnColumns {
  const next: TurnColumns = {
    turnWindowMs: body.turn_window_ms ?? current?.turnWindowMs ?? 0,
    turnWindowMaxMs: body.turn_window_max_ms === undefined ? (current?.turnWindowMaxMs ?? null) : body.turn_window_max_ms,
    onNewTurn: body.on_new_turn ?? current?.onNewTurn ?? 'continue',
  };
  if (next.turnWindowMaxMs !== null && next.turnWindowMaxMs < next.turnWindowMs) {
    const message = `must be at least turn_window_ms (${next.turnWindowMs})`;
    throw new ApiError(2000, { detail: `turn_window_max_ms ${message}`, errors: [{ field: 'turn_window_max_ms', message }] });
  }
  return next;
}
