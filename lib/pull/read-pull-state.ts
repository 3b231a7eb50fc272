import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { rowsOf } from '@/platform/util/rows-of';
import { comparePositions, decodeCursor, encodeCursor, laterOf, type Position, START } from './cursor';

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
 * what retention kept, with the oldest cursor still available, 2064 a position the service never
 * gave: no event of the VA is there, so it may lie past the newest one), else after the
 * acknowledged position (or what retention removed, whichever is later).
 */
export async function startOf(
  db: Db,
  state: PullState,
  { accountId, vaUserId, cursor, field }: { accountId: number; vaUserId: number; cursor: string | undefined; field: string },
): Promise<Position> {
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
  if (!(await wasIssued(db, state, { accountId, vaUserId, position }))) {
    const resume = encodeCursor(vaUserId, laterOf(state.acked, state.floor));
    throw new ApiError(2064, {
      detail: `read on without a cursor, or from ${resume}`,
      errors: [{ field, message: 'no event of this virtual agent is at this position' }],
      response: { acknowledged_cursor: resume },
    });
  }
  return position;
}

/**
 * Whether the service can have given this position: the start, the acknowledged or retention's
 * position (what an empty page answers), or the position of one of the VA's events (one probe of
 * events_va_stream_idx). Anything else, a position past the newest event above all, would skip
 * every event committed before it is reached.
 */
async function wasIssued(
  db: Db,
  state: PullState,
  { accountId, vaUserId, position }: { accountId: number; vaUserId: number; position: Position },
): Promise<boolean> {
  if ([START, state.acked, state.floor].some((p) => comparePositions(p, position) === 0)) return true;
  const rows = rowsOf<{ one: number }>(
    await db.execute(sql`
      select 1 as one from events
      where virtual_agent_id = ${vaUserId} and stream_xid = ${position.xid}::bigint and id = ${position.id}::bigint
        and account_id = ${accountId}`),
  );
  return rows.length > 0;
}
