import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { teamMemberships, userSkills, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';

export type CreateUserInput = {
  accountId: number;
  kind: 'agent' | 'manager';
  loginId: string;
  name: string;
  email?: string;
  availability?: 'available' | 'unavailable';
  capacity?: number;
  teamIds?: number[];
  skillIds?: number[];
  customAttributes?: Record<string, string>;
};

/** An agent or manager; team and skill IDs must belong to the account (checked by the caller). */
export async function createUser(db: Db, input: CreateUserInput) {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        accountId: input.accountId,
        kind: input.kind,
        loginId: input.loginId,
        name: input.name,
        email: input.email ?? null,
        availability: input.availability ?? 'unavailable',
        capacity: input.capacity ?? 3,
        customAttributes: input.customAttributes ?? {},
      })
      .onConflictDoNothing()
      .returning();
    if (!user) {
      // Two unique keys can refuse the row: name the one that did, so the client fixes the right field.
      const [sameLogin] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.accountId, input.accountId), eq(users.loginId, input.loginId)))
        .limit(1);
      const field = sameLogin ? 'login_id' : 'name';
      throw new ApiError(3004, {
        detail: sameLogin ? `login ID "${input.loginId}"` : `name "${input.name}"`,
        errors: [{ field, message: 'already in use' }],
      });
    }
    if (input.teamIds?.length) await tx.insert(teamMemberships).values(input.teamIds.map((teamId) => ({ teamId, userId: user.id })));
    if (input.skillIds?.length) await tx.insert(userSkills).values(input.skillIds.map((skillId) => ({ userId: user.id, skillId })));
    return user;
  });
}
