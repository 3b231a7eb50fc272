import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './_columns';
import { accounts } from './accounts';
import { teams } from './teams';

export type RoutingCondition = {
  /** `channel`, `asset_id`, `customer.destination_id`, `customer.name`, `other_details.<key>`, `route_params.<key>` */
  field: string;
  op: 'equals' | 'not_equals' | 'contains' | 'starts_with' | 'in';
  value: string | string[];
};

/** Ordered rules: the first enabled rule whose conditions all hold sends the chat to its team. */
export const routingRules = pgTable(
  'routing_rules',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    conditions: jsonb('conditions').$type<RoutingCondition[]>().notNull().default([]),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    skill: text('skill'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('routing_rules_account_position_idx').on(t.accountId, t.position)],
);
