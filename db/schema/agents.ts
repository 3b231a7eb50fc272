import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { users } from './users';

/**
 * How a person (a user of kind agent or manager) signs in to the agent workspace: their sign-in
 * email (unique over the service, like an administrator's), their password hash once they have set
 * one, and the hash of the one-time invite token while an invite is open. Tokens are never stored.
 */
export const agentLogins = pgTable(
  'agent_logins',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Lower case. */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: tstz('invite_expires_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('agent_logins_email_key').on(t.email),
    uniqueIndex('agent_logins_invite_key').on(t.inviteTokenHash),
    index('agent_logins_account_idx').on(t.accountId),
  ],
);

/** Open workspace sessions; only the token's hash is stored (like admin_sessions). */
export const agentSessions = pgTable(
  'agent_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('agent_sessions_user_idx').on(t.userId), index('agent_sessions_expires_idx').on(t.expiresAt)],
);
