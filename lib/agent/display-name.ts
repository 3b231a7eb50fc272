import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';

/** The name customers see on a person's replies: the one they chose, else the first word of their name. */
export function displayNameOf(user: { displayName: string | null; name: string }): string {
  return user.displayName ?? (user.name.trim().split(/\s+/)[0] || user.name);
}

/** Sets (or, with null, clears) the name the person shows customers. */
export async function setDisplayName(
  db: Db,
  { accountId, userId, displayName }: { accountId: number; userId: number; displayName: string | null },
): Promise<void> {
  await db
    .update(users)
    .set({ displayName, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)));
}
