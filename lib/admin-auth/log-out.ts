import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { adminSessions } from '@/db/schema';
import { sha256 } from '@/platform/util/ids';

export async function logOut(db: Db, { token }: { token: string }): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, sha256(token)));
}
