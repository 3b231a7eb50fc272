import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './_columns';
import { accounts, admins } from './accounts';
import { users } from './users';

/**
 * One row per state-changing admin API call: who (admin and email, kept if the admin is deleted),
 * what (method and route, the target's id, the names of the fields sent and their boolean or
 * number values: never strings, which may be secrets or customer text), the answer's status,
 * and from where (client address, trxid). Deleted after AUDIT_RETENTION_DAYS.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id').references(() => admins.id, { onDelete: 'set null' }),
    /** The person (agent or manager) when the action came from the agent workspace; `admin_email` then holds `agent:<email>`. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    /** `METHOD /route/:param`, as in the API reference. */
    action: text('action').notNull(),
    targetId: text('target_id'),
    fields: text('fields').array().notNull().default([]),
    values: jsonb('values').$type<Record<string, boolean | number | null>>().notNull().default({}),
    httpStatus: integer('http_status').notNull(),
    clientAddress: text('client_address').notNull(),
    trxid: text('trxid').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_entries_account_created_idx').on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('audit_entries_created_idx').on(t.createdAt),
  ],
);
