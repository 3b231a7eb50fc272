import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';

/** A tenant: a business using the service. Everything else belongs to exactly one account. */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Team that receives chats no routing rule matched (set by the routing setup). */
    defaultTeamId: integer('default_team_id'),
    /**
     * Whether the account's bots may use the transfer operation (PATCH /internal/chats/{id}), which
     * the spec ships as a beta the provider enables per account. Only a platform administrator
     * changes it; new accounts have it on.
     */
    transferEnabled: boolean('transfer_enabled').notNull().default(true),
    /**
     * Set on a replay sandbox: the live account it belongs to (lib/replay). A sandbox has teams,
     * assets and VAs of its own and no people, so its chats reach no customer, person, list or
     * metric of the live account. Null for every live account.
     */
    sandboxOfAccountId: integer('sandbox_of_account_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One sandbox per live account, found from it.
  (t) => [uniqueIndex('accounts_sandbox_of_key').on(t.sandboxOfAccountId).where(sql`${t.sandboxOfAccountId} is not null`)],
);

export const admins = pgTable(
  'admins',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** May create further accounts (tenants). */
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('admins_email_key').on(t.email), index('admins_account_idx').on(t.accountId)],
);

export const adminSessions = pgTable(
  'admin_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('admin_sessions_admin_idx').on(t.adminId), index('admin_sessions_expires_idx').on(t.expiresAt)],
);
