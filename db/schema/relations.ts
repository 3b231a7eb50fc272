import { relations } from 'drizzle-orm';
import { accounts } from './accounts';
import { assets, customers } from './assets';
import { chats, messages } from './chats';
import { deliveryAttempts, events } from './events';
import { skills, teams } from './teams';
import { teamMemberships, userSkills, users, virtualAgents } from './users';

export const chatsRelations = relations(chats, ({ one, many }) => ({
  account: one(accounts, { fields: [chats.accountId], references: [accounts.id] }),
  team: one(teams, { fields: [chats.teamId], references: [teams.id] }),
  asset: one(assets, { fields: [chats.assetId], references: [assets.id] }),
  customer: one(customers, { fields: [chats.customerId], references: [customers.id] }),
  assignee: one(users, { fields: [chats.assigneeId], references: [users.id] }),
  messages: many(messages),
  events: many(events),
}));

export const messagesRelations = relations(messages, ({ one }) => ({
  chat: one(chats, { fields: [messages.chatId], references: [chats.id] }),
}));

export const eventsRelations = relations(events, ({ one, many }) => ({
  chat: one(chats, { fields: [events.chatId], references: [chats.id] }),
  virtualAgent: one(users, { fields: [events.virtualAgentId], references: [users.id] }),
  attempts: many(deliveryAttempts),
}));

export const deliveryAttemptsRelations = relations(deliveryAttempts, ({ one }) => ({
  event: one(events, { fields: [deliveryAttempts.eventId], references: [events.id] }),
}));

export const teamsRelations = relations(teams, ({ many }) => ({
  skills: many(skills),
  memberships: many(teamMemberships),
}));

export const skillsRelations = relations(skills, ({ one }) => ({
  team: one(teams, { fields: [skills.teamId], references: [teams.id] }),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  virtualAgent: one(virtualAgents, { fields: [users.id], references: [virtualAgents.userId] }),
  memberships: many(teamMemberships),
  skills: many(userSkills),
}));

export const virtualAgentsRelations = relations(virtualAgents, ({ one }) => ({
  user: one(users, { fields: [virtualAgents.userId], references: [users.id] }),
  team: one(teams, { fields: [virtualAgents.teamId], references: [teams.id] }),
}));

export const teamMembershipsRelations = relations(teamMemberships, ({ one }) => ({
  team: one(teams, { fields: [teamMemberships.teamId], references: [teams.id] }),
  user: one(users, { fields: [teamMemberships.userId], references: [users.id] }),
}));

export const userSkillsRelations = relations(userSkills, ({ one }) => ({
  user: one(users, { fields: [userSkills.userId], references: [users.id] }),
  skill: one(skills, { fields: [userSkills.skillId], references: [skills.id] }),
}));
