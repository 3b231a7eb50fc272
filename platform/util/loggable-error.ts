/**
 * What may be logged about an unexpected failure: error class names along the cause chain, the
 * database's SQLSTATE, the statement text (placeholders only) and the stack frames. Messages are
 * left out because drivers put query parameters (customer text) and offending values in them, and
 * JSON parse errors quote their input; only programming errors (TypeError, ReferenceError,
 * RangeError) keep theirs, which the code writes.
 */
const CODE_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError']);

export function loggableError(err: unknown): Record<string, unknown> {
  const names: string[] = [];
  let code: string | undefined;
  let statement: string | undefined;
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    names.push((e as Error).constructor?.name ?? 'Object');
    const c = (e as { code?: unknown }).code;
    if (code === undefined && typeof c === 'string') code = c;
    const q = (e as { query?: unknown }).query;
    if (statement === undefined && typeof q === 'string') statement = q.slice(0, 300);
  }
  if (!names.length) names.push(typeof err);
  const stack =
    err instanceof Error
      ? err.stack
          ?.split('\n')
          .filter((line) => /^\s+at /.test(line))
          .slice(0, 10)
      : undefined;
  const message = err instanceof Error && CODE_ERRORS.has(err.constructor.name) ? err.message : undefined;
  return {
    errorType: names.join(' < '),
    ...(message && { message }),
    ...(code && { code }),
    ...(statement && { statement }),
    ...(stack?.length && { stack }),
  };
}
