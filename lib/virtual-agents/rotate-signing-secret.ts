import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { newSigningSecret } from './create-virtual-agent';

/** A new webhook signing secret; deliveries from now on are signed with it only. */
export async function rotateSigningSecret(db: Db, { accountId, id }: { accountId: number; id: number }) {
  const signingSecret = newSigningSecret();
  const updated = await db
    .update(virtualAgents)
    .set({ signingSecret, updatedAt: new Date() })
    .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)))
    .returning({ id: virtualAgents.userId });
  if (!updated.length) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
  return { id, signing_secret: signingSecret };
}
