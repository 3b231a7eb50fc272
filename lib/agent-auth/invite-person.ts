import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentLogins, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { randomToken, sha256 } from '@/platform/util/ids';

/** How long an invite link stays usable. */
const INVITE_HOURS = 72;

/**
 * An administrator invites an agent or a manager to the workspace: a new one-time token (only
 * its hash is kept, valid INVITE_HOURS) whose link sets the person's password. The link carries
 * the token after `#`, so browsers never send it to a server and no access log records it. It is
 * answered once; a new invite replaces the previous link (and, for a person who already has a
 * password, lets them set a new one). The sign-in email is `email` if sent, else the user's own;
 * it is unique over the service (3004 when another person signs in with it).
 */
export async function invitePerson(
  db: Db,
  { accountId, userId, email, base }: { accountId: number; userId: number; email?: string; base: string },
): Promise<{ invite_url: string; email: string; expires_at: string }> {
  const [user] = await db
    .select({ id: users.id, kind: users.kind, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)));
  if (!user) throw new ApiError(3006, { detail: `user ${userId}` });
  if (user.kind === 'virtual_agent') {
    throw new ApiError(3008, { detail: 'a virtual agent signs in with its API key; invite agents and managers only' });
  }
  const signInEmail = (email ?? user.email ?? '').trim().toLowerCase();
  if (!signInEmail) {
    throw new ApiError(2000, {
      detail: 'the user has no email: send one',
      errors: [{ field: 'email', message: 'required when the user has no email' }],
    });
  }
  const [taken] = await db.select({ userId: agentLogins.userId }).from(agentLogins).where(eq(agentLogins.email, signInEmail));
  if (taken && taken.userId !== user.id) {
    throw new ApiError(3004, { detail: 'another person signs in with this email', errors: [{ field: 'email', message: 'in use' }] });
  }
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + INVITE_HOURS * 3600_000);
  const values = { email: signInEmail, inviteTokenHash: sha256(token), inviteExpiresAt: expiresAt, updatedAt: new Date() };
  try {
    await db
      .insert(agentLogins)
      .values({ userId: user.id, accountId, ...values })
      .onConflictDoUpdate({ target: agentLogins.userId, set: values });
  } catch (err) {
    // Two invites racing for one email: the unique index decides.
    if ((err as { code?: string }).code === '23505') {
      throw new ApiError(3004, { detail: 'another person signs in with this email', errors: [{ field: 'email', message: 'in use' }] });
    }
    throw err;
  }
  return { invite_url: `${base}/agent/invite#${token}`, email: signInEmail, expires_at: expiresAt.toISOString() };
}
