import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { availabilityEnum, userKindEnum } from './enums';
import { skills, teams } from './teams';

/** Agents, managers and virtual agents: anyone a chat can be assigned to. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: userKindEnum('kind').notNull(),
    /** The login ID that chats name in `assignee`. Unique within the account. */
    loginId: text('login_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    /** The name a person chose to show customers (the widget says who answers); null: their first name. */
    displayName: text('display_name'),
    availability: availabilityEnum('availability').notNull().default('unavailable'),
    /** Most chats the user holds at once (auto-assign never exceeds it). */
    capacity: integer('capacity').notNull().default(3),
    enabled: boolean('enabled').notNull().default(true),
    customAttributes: jsonb('custom_attributes').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_account_login_key').on(t.accountId, t.loginId),
    uniqueIndex('users_account_kind_name_key').on(t.accountId, t.kind, t.name),
  ],
);

export const teamMemberships = pgTable(
  'team_memberships',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_memberships_user_idx').on(t.userId)],
);

export const userSkills = pgTable(
  'user_skills',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.skillId] }), index('user_skills_skill_idx').on(t.skillId)],
);

/** Settings of a user whose kind is `virtual_agent`. */
export const virtualAgents = pgTable(
  'virtual_agents',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    /** Exactly one team, as the spec requires. */
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id),
    /** `webhook`: events are POSTed to `webhookUrl`; `pull`: nothing is POSTed, the bot reads GET /events. */
    deliveryMode: text('delivery_mode').$type<'webhook' | 'pull'>().notNull().default('webhook'),
    /** Required in `webhook` mode; may be null in `pull` mode. */
    webhookUrl: text('webhook_url'),
    webhookHeaders: jsonb('webhook_headers').$type<Record<string, string>>().notNull().default({}),
    subscriptions: text('subscriptions').array().notNull().default(sql`ARRAY['chat.assigned','message.received']::text[]`),
    apiKeyHash: text('api_key_hash').notNull(),
    /** First characters of the key, so admins can tell keys apart. */
    apiKeyPrefix: text('api_key_prefix').notNull(),
    /** `whsec_...`; kept in clear because every delivery is signed with it. */
    signingSecret: text('signing_secret').notNull(),
    /** The secret before the last rotation: deliveries carry its signature too until it expires. */
    previousSigningSecret: text('previous_signing_secret'),
    previousSigningSecretExpiresAt: tstz('previous_signing_secret_expires_at'),
    /** The key before a rotation with overlap: it still authorizes until it expires. */
    previousApiKeyHash: text('previous_api_key_hash'),
    previousApiKeyExpiresAt: tstz('previous_api_key_expires_at'),
    fallbackTeamId: integer('fallback_team_id').references(() => teams.id, { onDelete: 'set null' }),
    fallbackSkill: text('fallback_skill'),
    /**
     * Delivery to the webhook is stopped (its events are held, not sent) since this time, for
     * `webhookDisabledReason` (the receiver answered 410 Gone). Cleared when the URL is changed.
     */
    webhookDisabledAt: tstz('webhook_disabled_at'),
    webhookDisabledReason: text('webhook_disabled_reason'),
    /** First failed attempt since the last delivered one; null while the webhook answers (lib/delivery/webhook-failing.ts). */
    webhookFailingSince: tstz('webhook_failing_since'),
    /** Set when the webhook had nothing but failures for WEBHOOK_FAILING_AFTER_SECONDS; cleared by its next delivery. */
    webhookFailingAt: tstz('webhook_failing_at'),
    /** The reply budget: seconds a customer may wait on this VA (null: off), and what then happens. */
    replyTimeoutSeconds: integer('reply_timeout_seconds'),
    replyTimeoutAction: text('reply_timeout_action', { enum: ['handover', 'notify'] })
      .notNull()
      .default('handover'),
    /** How many times this VA may hand one chat to people; past it the chat stays with people (lib/handovers). */
    maxHandoversPerChat: integer('max_handovers_per_chat').notNull().default(3),
    /**
     * What the widget's "Talk to a person" does on this VA's chats: `fallback` moves the chat to the
     * VA's fallback route (or the chat's team's queue); `bot` tells the bot (`handover.requested`), which handles it.
     */
    personRequest: text('person_request', { enum: ['fallback', 'bot'] })
      .notNull()
      .default('fallback'),
    /**
     * Turns (lib/turns): how long a customer's burst of messages is gathered into one
     * `message.received` (0: off, every message is its own turn at once), the most a turn may be
     * held (null: the default cap), and whether a new turn supersedes the bot's reply in progress.
     */
    turnWindowMs: integer('turn_window_ms').notNull().default(0),
    turnWindowMaxMs: integer('turn_window_max_ms'),
    onNewTurn: text('on_new_turn', { enum: ['continue', 'supersede'] })
      .notNull()
      .default('continue'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('virtual_agents_api_key_hash_key').on(t.apiKeyHash),
    index('virtual_agents_account_idx').on(t.accountId),
    index('virtual_agents_previous_api_key_hash_idx').on(t.previousApiKeyHash).where(sql`${t.previousApiKeyHash} is not null`),
    // The sweep that marks long-failing webhooks reads only VAs failing and not yet marked.
    index('virtual_agents_failing_since_idx')
      .on(t.webhookFailingSince)
      .where(sql`${t.webhookFailingSince} is not null and ${t.webhookFailingAt} is null`),
  ],
);

/** Bot access tokens issued by POST /authorize; only their hashes are stored. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('access_tokens_expires_idx').on(t.expiresAt), index('access_tokens_user_idx').on(t.userId)],
);
