import type { Db } from '@/db/client';
import { accounts, admins } from '@/db/schema';
import { passwordProblem } from '@/platform/auth/password-policy';
import { hashPassword } from '@/platform/auth/passwords';
import { ApiError } from '@/platform/errors';

export type CreateAccountInput = { name: string; adminEmail: string; adminPassword: string; isPlatformAdmin?: boolean };

/** A tenant with its first administrator, whose password must pass the policy (3009). */
export async function createAccount(db: Db, input: CreateAccountInput) {
  const weak = passwordProblem(input.adminPassword, [input.adminEmail, input.name]);
  if (weak) throw new ApiError(3009, { detail: `admin_password ${weak}`, errors: [{ field: 'admin_password', message: weak }] });
  const passwordHash = await hashPassword(input.adminPassword);
  return db.transaction(async (tx) => {
    const [account] = await tx.insert(accounts).values({ name: input.name }).returning();
    const [admin] = await tx
      .insert(admins)
      .values({
        accountId: account.id,
        email: input.adminEmail.toLowerCase(),
        passwordHash,
        isPlatformAdmin: input.isPlatformAdmin ?? false,
      })
      .onConflictDoNothing()
      .returning({ id: admins.id, email: admins.email });
    if (!admin)
      throw new ApiError(3004, {
        detail: `an administrator ${input.adminEmail} exists`,
        errors: [{ field: 'admin_email', message: 'already in use' }],
      });
    return { account, admin };
  });
}
