/**
 * The browser's one reading of a refused call, for every surface (console, workspace, widget): the
 * API's envelope `{status_code, description, response}` into what a page shows.
 */

/** What the pages show of a failed call: the envelope's description and the field errors by field. */
export type Failure = {
  status: number | null;
  code: number | null;
  description: string;
  fields: Record<string, string>;
};

type EnvelopeLike = { status_code?: unknown; description?: unknown; response?: unknown };

/**
 * Reads a failure thrown by the ts-rest react-query client (`{status, body}` for a non-2xx answer,
 * an Error when the request never completed) into something a form can show.
 */
export function failureOf(err: unknown): Failure | null {
  if (!err) return null;
  // The same error gives the same object, so a page can react to a new failure only (focus it once).
  if (typeof err === 'object' && err !== null) {
    const known = seen.get(err);
    if (known) return known;
    const made = readFailure(err);
    seen.set(err, made);
    return made;
  }
  return readFailure(err);
}

const seen = new WeakMap<object, Failure>();

function readFailure(err: unknown): Failure {
  if (err instanceof Error) return { status: null, code: null, description: `The request did not complete: ${err.message}`, fields: {} };
  if (typeof err === 'object' && err !== null && 'status' in err) {
    const { status, body } = err as { status: number; body: unknown };
    const env = (typeof body === 'object' && body !== null ? body : {}) as EnvelopeLike;
    const fields: Record<string, string> = {};
    const errors = (env.response as { errors?: { field: string; message: string }[] } | null)?.errors;
    for (const e of errors ?? []) if (!(e.field in fields)) fields[e.field] = e.message;
    return { ...refusal(status, body), fields };
  }
  return { status: null, code: null, description: String(err), fields: {} };
}

/** A refusal's status, code and sentence from its answer (an envelope, or a proxy's page). */
export function refusal(status: number, body: unknown): { status: number; code: number | null; description: string } {
  const env = (typeof body === 'object' && body !== null ? body : {}) as EnvelopeLike;
  const description = typeof env.description === 'string' && env.description ? env.description : `The server answered HTTP ${status}`;
  return { status, code: typeof env.status_code === 'number' ? env.status_code : null, description };
}

/** The catalogue code of a refused call, if it was one. */
export function codeOf(err: unknown): number | null {
  return failureOf(err)?.code ?? null;
}

/** The message for a field, also matching nested fields (`webhook_headers.Host` under `webhook_headers`). */
export function fieldError(failure: Failure | null, field: string): string | undefined {
  if (!failure) return undefined;
  if (failure.fields[field]) return failure.fields[field];
  const nested = Object.entries(failure.fields).find(([k]) => k.startsWith(`${field}.`));
  return nested ? `${nested[0].slice(field.length + 1)}: ${nested[1]}` : undefined;
}

export function isUnauthorized(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'status' in err && (err as { status: number }).status === 401;
}

/** Client errors are not retried: asking again gets the same answer. */
export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (typeof err === 'object' && err !== null && 'status' in err) {
    const status = (err as { status: number }).status;
    if (status >= 400 && status < 500) return false;
  }
  return failureCount < 2;
}
