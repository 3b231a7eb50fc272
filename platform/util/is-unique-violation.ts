/**
 * Whether a failed query broke a unique index (SQLSTATE 23505). Drizzle wraps driver errors in
 * `DrizzleQueryError` with the driver's error as `cause`; postgres.js and PGlite both carry `code`.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
