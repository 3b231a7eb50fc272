import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentSessions } from '@/db/schema';
import { env } from '@/env';
import { randomToken, sha256 } from '@/platform/util/ids';

/** A new session for the person (only the token's hash is stored); their expired ones are swept. */
export async function openAgentSession(db: Db, { userId }: { userId: number }) {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + env().ADMIN_SESSION_TTL_SECONDS * 1000);
  await db.transaction(async (tx) => {
    await tx.delete(agentSessions).where(and(eq(agentSessions.userId, userId), lt(agentSessions.expiresAt, new Date())));
    await tx.insert(agentSessions).values({ tokenHash: sha256(token), userId, expiresAt });
  });
  return { token, expiresAt };
}
