import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { env } from '@/env';
import { newSigningSecret } from './create-virtual-agent';
import { lockCredentials, previousValidUntil, type RotationMode } from './rotation';

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
  const validUntil = previousValidUntil(mode, env().SIGNING_SECRET_OVERLAP_SECONDS);
  const keepOld = validUntil !== null;
  await db.transaction(async (tx) => {
    const current = await lockCredentials(tx, { accountId, id });
    await tx
      .update(virtualAgents)
      .set({
        signingSecret,
        previousSigningSecret: keepOld ? current.signingSecret : null,
        previousSigningSecretExpiresAt: validUntil,
        updatedAt: new Date(),
      })
      .where(eq(virtualAgents.userId, id));
  });
  return { id, signing_secret: signingSecret, previous_valid_until: validUntil?.toISOString() ?? null };
}
