import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { channelEnum } from './enums';

/** A channel asset: an sms long code, a social page, a business email address, a livechat app... */
export const assets = pgTable(
  'assets',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channel: channelEnum('channel').notNull(),
    name: text('name').notNull(),
    /** The channel's own address of the asset (long code, page ID, From address, app ID), if any. */
    address: text('address'),
    /**
     * Set when an administrator disables the asset: it takes no new chats (2035); its chats carry
     * on as before. Assets are never deleted, since chats and their events refer to them.
     */
    disabledAt: tstz('disabled_at'),
    /**
     * Livechat: the website origins (`https://shop.example`) that may embed the chat widget. The
     * widget page may be framed only by these; the embed script does nothing on any other.
     */
    allowedOrigins: text('allowed_origins').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Livechat: the key that signs the widget's customer credentials (HMAC-SHA256), random per
     * asset. Never leaves the server; replacing it ends every credential issued for the asset.
     */
    widgetKey: text('widget_key').notNull().default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Lists read by id: every asset of an account, or of one channel (GET /api/v1/assets pages).
  (t) => [index('assets_list_idx').on(t.accountId, t.id), index('assets_channel_list_idx').on(t.accountId, t.channel, t.id)],
);

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channel: channelEnum('channel').notNull(),
    /** Customer address on the channel (mobile number, page-scoped ID, email address...). */
    destinationId: text('destination_id').notNull(),
    name: text('name').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('customers_account_channel_destination_key').on(t.accountId, t.channel, t.destinationId)],
);
