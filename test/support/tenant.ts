import { randomBytes } from 'node:crypto';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { createAccount } from '@/lib/accounts/create-account';
import { createAsset } from '@/lib/assets/create-asset';
import { authorize } from '@/lib/bot-auth/authorize';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** An account with a bot team (skills `billing`, `sales`), a human team, assets on every channel, a VA with a token, and an agent. */
export async function createTenant(db: Db, opts: { webhookUrl?: string; subscriptions?: EventType[] } = {}) {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(db, {
    name: `Tenant ${tag}`,
    adminEmail: `admin-${tag}@example.test`,
    adminPassword: 'correct horse battery',
  });
  const botTeam = await createTeam(db, { accountId: account.id, name: 'Bots', skillNames: ['billing', 'sales'] });
  const humanTeam = await createTeam(db, { accountId: account.id, name: 'Humans', skillNames: ['billing'] });
  const channels = ['sms', 'social1', 'social2', 'livechat', 'email', 'abc', 'messenger', 'api'] as const;
  const assets = Object.fromEntries(
    await Promise.all(
      channels.map(async (ch) => [ch, await createAsset(db, { accountId: account.id, channel: ch, name: `${ch} asset` })] as const),
    ),
  ) as unknown as Record<(typeof channels)[number], { id: number; name: string }>;
  const bot = await createVirtualAgent(db, {
    accountId: account.id,
    name: `Helper ${tag}`,
    description: 'Answers first',
    webhookUrl: opts.webhookUrl ?? 'http://127.0.0.1:9/hook',
    teamId: botTeam.id,
    subscriptions: opts.subscriptions ?? ['chat.assigned', 'message.received', 'chat.closed'],
  });
  const agent = await createUser(db, {
    accountId: account.id,
    kind: 'agent',
    loginId: `agent-${tag}`,
    name: `Agent ${tag}`,
    teamIds: [humanTeam.id],
    availability: 'available',
  });
  const token = (await authorize(db, { apiKey: bot.apiKey })).accessToken;
  return { account, botTeam, humanTeam, assets, bot, agent, token };
}
