import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';

/** Set to `true` on the answer of a POST that replays the stored answer of an earlier one with the same Idempotency-Key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export type Idempotency = { key: string | undefined; fingerprint: string };

export function fingerprintOf(method: string, route: string, body: unknown): string {
  return sha256(`${method} ${route} ${JSON.stringify(body)}`);
}

/**
 * Runs `fn` once per (account, key), inside the caller's transaction: the key row is inserted
 * first, so a concurrent retry waits on it and then replays the stored result. If `fn` fails the
 * transaction, the key goes with it and a retry runs afresh. Same key, other request: 2013.
 */
export async function withIdempotency<T>(
  tx: Db,
  { accountId, idempotency }: { accountId: number; idempotency?: Idempotency },
  fn: () => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  const key = idempotency?.key;
  if (!key) return { result: await fn(), replayed: false };
  const { fingerprint } = idempotency;
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ accountId, key, fingerprint, httpStatus: 0, response: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed.length) {
    const [prior] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError(2013, { errors: [{ field: 'header.idempotency-key', message: 'used before with another request' }] });
    }
    return { result: prior.response as T, replayed: true };
  }
  const result = await fn();
  await tx
    .update(idempotencyKeys)
    .set({ httpStatus: 200, response: result as object })
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
  return { result, replayed: false };
}
