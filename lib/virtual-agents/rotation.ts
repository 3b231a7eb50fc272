import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** `at_once` for a leaked credential; `overlap` keeps the replaced one valid for a while. */
export type RotationMode = 'at_once' | 'overlap';

/** Until when the replaced credential stays valid, or null when it stops now. */
export function previousValidUntil(mode: RotationMode, overlapSeconds: number): Date | null {
  return mode === 'overlap' && overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null;
}

/**
 * The VA's current credentials, its row locked until the rotation's transaction ends (two
 * rotations at once keep one another's result whole); 3006 when the account has no such VA.
 */
export async function lockCredentials(tx: Db, { accountId, id }: { accountId: number; id: number }) {
  const [current] = await tx
    .select({ apiKeyHash: virtualAgents.apiKeyHash, signingSecret: virtualAgents.signingSecret })
    .from(virtualAgents)
    .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)))
    .for('update');
  if (!current) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
  return current;
}
