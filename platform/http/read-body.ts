import { env } from '@/env';
import { ApiError } from '@/platform/errors';

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export type BodyLimits = { maxBytes: number; timeoutMs: number };

export function bodyLimits(): BodyLimits {
  const e = env();
  return { maxBytes: e.MAX_BODY_BYTES, timeoutMs: e.BODY_TIMEOUT_MS };
}

/** Whether a body is read at all: other methods' bodies are ignored, as ts-rest ignores them. */
export function takesBody(method: string): boolean {
  return BODY_METHODS.has(method);
}

/**
 * Whether a request's body is handed to its route unread, as it arrives: a POST whose content type
 * is an event stream (a reply sent as one stream). Such a body has no overall size or time limit
 * here; the route sets its own.
 */
export function takesStream(method: string, contentType: string | null): boolean {
  return method === 'POST' && /^\s*text\/event-stream\b/i.test(contentType ?? '');
}

/** 2008 before reading when Content-Length already says the body is too large. */
export function checkDeclaredLength(declared: string | null, limits: BodyLimits): void {
  if (declared !== null && Number(declared) > limits.maxBytes) throw tooLarge(limits);
}

const tooLarge = (limits: BodyLimits) => new ApiError(2008, { detail: `at most ${limits.maxBytes} bytes are accepted` });
const tooSlow = (limits: BodyLimits) => new ApiError(2015, { detail: `the body did not arrive in full within ${limits.timeoutMs} ms` });

/**
 * Reads a body of chunks in full, refusing it past the size limit (2008) or when it has not all
 * arrived within the time limit (2015). One chunk, the usual case for a small JSON body, is
 * returned as is, without a copy. `stop` is called on refusal so the source stops sending.
 */
export async function collectBody(chunks: AsyncIterable<Uint8Array>, limits: BodyLimits, stop: () => void): Promise<Uint8Array | null> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooSlow(limits)), limits.timeoutMs);
  });
  // A refusal that loses the race would otherwise be an unhandled rejection.
  timedOut.catch(() => {});
  const read = (async () => {
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits);
      parts.push(chunk);
    }
    if (parts.length === 0) return null;
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
  })();
  try {
    return await Promise.race([read, timedOut]);
  } catch (err) {
    stop();
    read.catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
