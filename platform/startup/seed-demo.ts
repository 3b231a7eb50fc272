import { eq } from 'drizzle-orm';
import { CHANNELS } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { accounts, agentLogins, skills } from '@/db/schema';
import { createAsset } from '@/lib/assets/create-asset';
import { createChat } from '@/lib/chats/create-chat';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { hashPassword } from '@/platform/auth/passwords';

/**
 * Sample data showing the spec's dedicated-team pattern: the "Virtual Agents" team (the default
 * team, auto-assign on) holds the bot and its unavailable manager, so new chats reach the bot
 * first; "Support" holds live agents with skills and auto-assign on, for the bot's handovers. The bot's webhook is `webhookUrl`, where the example bot
 * (`npm run demo:bot`, examples/bot) listens; until it runs, its events wait and are retried.
 */
export const DEMO_AGENT_EMAIL = 'alex.agent@demo.test';

export async function seedDemo(
  db: Db,
  { accountId, webhookUrl, agentPassword }: { accountId: number; webhookUrl: string; agentPassword?: string },
) {
  const vaTeam = await createTeam(db, { accountId, name: 'Virtual Agents', autoAssign: true, skillNames: ['triage'] });
  const support = await createTeam(db, { accountId, name: 'Support', autoAssign: true, skillNames: ['billing', 'technical'] });
  await db.update(accounts).set({ defaultTeamId: vaTeam.id }).where(eq(accounts.id, accountId));
  const supportSkills = new Map(
    (await db.select({ id: skills.id, name: skills.name }).from(skills).where(eq(skills.teamId, support.id))).map((k) => [k.name, k.id]),
  );
  await createUser(db, {
    accountId,
    kind: 'manager',
    loginId: 'maria.manager',
    name: 'Maria Manager',
    teamIds: [vaTeam.id, support.id],
    availability: 'unavailable',
  });
  const alex = await createUser(db, {
    accountId,
    kind: 'agent',
    loginId: 'alex.agent',
    name: 'Alex Agent',
    teamIds: [support.id],
    availability: 'available',
    capacity: 3,
    skillIds: [supportSkills.get('billing')!, supportSkills.get('technical')!],
  });
  await createUser(db, {
    accountId,
    kind: 'agent',
    loginId: 'sam.agent',
    name: 'Sam Agent',
    teamIds: [support.id],
    availability: 'unavailable',
    capacity: 2,
    skillIds: [supportSkills.get('billing')!],
  });
  // Alex signs in to the agent workspace (/agent) with the password the start prints.
  if (agentPassword) {
    await db
      .insert(agentLogins)
      .values({ userId: alex.id, accountId, email: DEMO_AGENT_EMAIL, passwordHash: await hashPassword(agentPassword) });
  }
  const assets = new Map<string, number>();
  for (const channel of CHANNELS) assets.set(channel, (await createAsset(db, { accountId, channel, name: `Demo ${channel}` })).id);
  const bot = await createVirtualAgent(db, {
    accountId,
    name: 'Demo Bot',
    description: 'Greets customers and hands over to Support',
    webhookUrl,
    teamId: vaTeam.id,
    // "Talk to a person", and a bot that stays down, reach Support (Alex): the Virtual Agents team's
    // only person is away, and a chat handed to people never goes back to a bot by auto-assign.
    fallbackTeamId: support.id,
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
  });
  await createChat(db, {
    accountId,
    actorLoginId: bot.user.loginId,
    body: {
      channel: 'livechat',
      asset_id: assets.get('livechat')!,
      customer: { destination_id: 'lc-visitor-1', name: 'Ada Visitor' },
      assignee: bot.user.loginId,
      thread_id: 'thread-1',
      messages: [{ type: 'inbound', text: 'Hi, I need help with my invoice.' }],
    },
  });
  await createChat(db, {
    accountId,
    actorLoginId: bot.user.loginId,
    body: {
      channel: 'sms',
      asset_id: assets.get('sms')!,
      customer: { destination_id: '+15550100', name: 'Ben Texter' },
      team_id: support.id,
      skill: 'billing',
      tags: ['vip'],
      messages: [{ type: 'inbound', text: 'My card was charged twice.' }],
    },
  });
  return { apiKey: bot.apiKey, signingSecret: bot.signingSecret, vaId: bot.user.id, livechatAssetId: assets.get('livechat')! };
}
