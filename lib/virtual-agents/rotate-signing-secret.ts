import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { env } from '@/env';
import { ApiError } from '@/lib/errors';
import { newSigningSecret } from './create-virtual-agent';
import type { RotationMode } from './rotate-api-key';

/**
 * A new webhook signing secret. With `overlap` (the default) the previous secret is kept for
 * SIGNING_SECRET_OVERLAP_SECONDS and every delivery in that time carries two signatures, one per
 * secret, space-separated in `webhook-signature` as Standard Webhooks allows: a bot that still
 * knows only the old secret keeps verifying until it is updated. `at_once` (a leaked secret)
 * drops the old one now. A further rotation replaces the kept secret.
 */
export async function rotateSigningSecret(
  db: Db,
  { accountId, id, mode = 'overlap' }: { accountId: number; id: number; mode?: RotationMode },
) {
  const signingSecret = newSigningSecret();
  const overlapSeconds = env().SIGNING_SECRET_OVERLAP_SECONDS;
  const keepOld = mode === 'overlap' && overlapSeconds > 0;
  const previousValidUntil = keepOld ? new Date(Date.now() + overlapSeconds * 1000) : null;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ signingSecret: virtualAgents.signingSecret })
      .from(virtualAgents)
      .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)))
      .for('update');
    if (!current) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
    await tx
      .update(virtualAgents)
      .set({
        signingSecret,
        previousSigningSecret: keepOld ? current.signingSecret : null,
        previousSigningSecretExpiresAt: previousValidUntil,
        updatedAt: new Date(),
      })
      .where(eq(virtualAgents.userId, id));
  });
  return { id, signing_secret: signingSecret, previous_valid_until: previousValidUntil?.toISOString() ?? null };
}
