/**
 * Whether a failed query broke a constraint, by its SQLSTATE. Drizzle wraps driver errors in
 * `DrizzleQueryError` with the driver's error as `cause`; postgres.js and PGlite both carry `code`.
 */
function hasSqlState(err: unknown, state: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === state) return true;
  }
  return false;
}

/** A unique index was broken (23505). */
export const isUniqueViolation = (err: unknown): boolean => hasSqlState(err, '23505');

/** A foreign key was broken (23503): the row it names is not there. */
export const isForeignKeyViolation = (err: unknown): boolean => hasSqlState(err, '23503');
