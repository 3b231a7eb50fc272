import { ApiError } from '@/platform/errors';

/** Opaque page cursors: base64url JSON, checked on the way back in. */
export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor<T extends (string | number)[]>(cursor: string, check: (parts: unknown[]) => parts is T): T {
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parts) && check(parts)) return parts;
  } catch {
    // fall through to the error below
  }
  throw new ApiError(2001, {
    detail: 'cursor is not one this API returned',
    errors: [{ field: 'query.cursor', message: 'invalid cursor' }],
  });
}
