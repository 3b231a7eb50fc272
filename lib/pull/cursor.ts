import { ApiError } from '@/platform/errors';

/** A place in one VA's pull order: after the event (`xid`, `id`); (0, 0) is before the first. */
export type Position = { xid: number; id: number };

export const START: Position = { xid: 0, id: 0 };

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const CURSOR = /^ev([0-9a-f]{8})([0-9a-f]{16})([0-9a-f]{16})$/;

/**
 * The cursor string: `ev`, the VA's user id, the position's xid and event id, in fixed-width hex.
 * Opaque to bots; within one VA, a later position is also a later string.
 */
export function encodeCursor(vaUserId: number, p: Position): string {
  return `ev${hex(vaUserId, 8)}${hex(p.xid, 16)}${hex(p.id, 16)}`;
}

/** Reads a cursor given by `field`: 2060 when it is not one of ours, 2061 when it is another VA's. */
export function decodeCursor(cursor: string, { vaUserId, field }: { vaUserId: number; field: string }): Position {
  const m = CURSOR.exec(cursor);
  const xid = m ? Number.parseInt(m[2], 16) : Number.NaN;
  const id = m ? Number.parseInt(m[3], 16) : Number.NaN;
  if (!m || !Number.isSafeInteger(xid) || !Number.isSafeInteger(id)) {
    throw new ApiError(2060, { detail: field, errors: [{ field, message: 'not a cursor this service gave' }] });
  }
  if (Number.parseInt(m[1], 16) !== vaUserId) {
    throw new ApiError(2061, { detail: field, errors: [{ field, message: 'no such cursor for this virtual agent' }] });
  }
  return { xid, id };
}

export function comparePositions(a: Position, b: Position): number {
  return a.xid !== b.xid ? Math.sign(a.xid - b.xid) : Math.sign(a.id - b.id);
}

export const laterOf = (a: Position, b: Position) => (comparePositions(a, b) >= 0 ? a : b);
