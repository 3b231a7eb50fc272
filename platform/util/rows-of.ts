/** Rows of a raw `db.execute` on either driver (postgres.js returns an array, PGlite `{ rows }`). */
export function rowsOf<R = Record<string, unknown>>(result: unknown): R[] {
  return Array.isArray(result) ? (result as R[]) : ((result as { rows?: R[] }).rows ?? []);
}
