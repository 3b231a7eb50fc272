import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { HANDOVER_SOURCES } from '@/contracts/bot/schemas/handover';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { chats } from './chats';
import { teams } from './teams';
import { users } from './users';

/**
 * Each time a chat went from a virtual agent to people: how (`source`), the context the bot gave
 * (reason, summary, intent, the fields it collected), and, once a person handed it back, who did,
 * when and with which note. The workspace's card is the chat's latest row; the loop limit counts
 * a VA's rows of the chat. Deleted with the chat (chat retention).
 */
export const chatHandovers = pgTable(
  'chat_handovers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The VA the chat left. */
    vaUserId: integer('va_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: HANDOVER_SOURCES }).notNull(),
    reason: text('reason'),
    summary: text('summary'),
    intent: text('intent'),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    handedBackAt: tstz('handed_back_at'),
    handedBackBy: text('handed_back_by'),
    handbackNote: text('handback_note'),
  },
  (t) => [index('chat_handovers_chat_idx').on(t.chatId, t.id)],
);

/**
 * A bot's request for a person's decision on an action, while the bot keeps the chat. `details`
 * are the key/values shown to the person, each saying whether the person may edit it;
 * `decided_details` the values as decided. Expiry is a periodic duty (lib/approvals). Deleted with
 * the chat (chat retention).
 */
export const approvals = pgTable(
  'approvals',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    vaUserId: integer('va_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    skill: text('skill'),
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<{ key: string; value: string; editable: boolean }[]>().notNull().default([]),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'expired'] })
      .notNull()
      .default('pending'),
    expiresAt: tstz('expires_at').notNull(),
    comment: text('comment'),
    decidedDetails: jsonb('decided_details').$type<Record<string, string>>(),
    decidedByUserId: integer('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    decidedBy: text('decided_by'),
    decidedAt: tstz('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The expiry duty reads only pending requests, soonest first.
    index('approvals_pending_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    // The workspace lists a team's pending requests, oldest first.
    index('approvals_team_pending_idx').on(t.teamId, t.createdAt).where(sql`${t.status} = 'pending'`),
    index('approvals_chat_idx').on(t.chatId, t.createdAt),
  ],
);
