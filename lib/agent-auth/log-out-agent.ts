import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentSessions } from '@/db/schema';
import { sha256 } from '@/platform/util/ids';

/** Ends the session: its token opens nothing any more. */
export async function logOutAgent(db: Db, { token }: { token: string }): Promise<void> {
  await db.delete(agentSessions).where(eq(agentSessions.tokenHash, sha256(token)));
}
