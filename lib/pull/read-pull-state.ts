import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { rowsOf } from '@/platform/util/rows-of';
import { decodeCursor, encodeCursor, laterOf, type Position, START } from './cursor';

export type PullState = {
  mode: 'webhook' | 'pull';
  acked: Position;
  /** The newest event retention removed: a cursor before it has lost events (2063). */
  floor: Position;
};

type Row = {
  mode: 'webhook' | 'pull';
  acked_xid: string | null;
  acked_id: string | null;
  floor_xid: string | null;
  floor_id: string | null;
};

/** The VA's delivery mode and pull positions (none yet: the start). */
export async function readPullState(db: Db, { accountId, vaUserId }: { accountId: number; vaUserId: number }): Promise<PullState> {
  const [row] = rowsOf<Row>(
    await db.execute(sql`
      select va.delivery_mode as mode, c.acked_xid, c.acked_id, c.floor_xid, c.floor_id
      from virtual_agents va left join event_cursors c on c.virtual_agent_id = va.user_id
      where va.user_id = ${vaUserId} and va.account_id = ${accountId}`),
  );
  if (!row) throw new ApiError(2003, { detail: 'the virtual agent is gone' });
  return {
    mode: row.mode,
    acked: { xid: Number(row.acked_xid ?? 0), id: Number(row.acked_id ?? 0) },
    floor: { xid: Number(row.floor_xid ?? 0), id: Number(row.floor_id ?? 0) },
  };
}

/**
 * Where a read starts: after `cursor` when given (2060 not ours, 2061 another VA's, 2063 older than
 * what retention kept, with the oldest cursor still available), else after the acknowledged
 * position (or what retention removed, whichever is later).
 */
export function startOf(
  state: PullState,
  { vaUserId, cursor, field }: { vaUserId: number; cursor: string | undefined; field: string },
): Position {
  if (cursor === undefined) return laterOf(state.acked, state.floor);
  const position = decodeCursor(cursor, { vaUserId, field });
  if (position.xid < state.floor.xid || (position.xid === state.floor.xid && position.id < state.floor.id)) {
    const oldest = encodeCursor(vaUserId, state.floor);
    throw new ApiError(2063, {
      detail: `read on from ${oldest}`,
      errors: [{ field, message: 'older than what retention kept' }],
      response: { oldest_cursor: oldest },
    });
  }
  return position;
}

export { START };
