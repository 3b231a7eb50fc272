import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccount } from '@/lib/accounts/create-account';
import { authorize } from '@/lib/bot-auth/authorize';
import { DEMO_AGENT_EMAIL, seedDemo } from '@/platform/startup/seed-demo';
import { ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';

describe('demo data', () => {
  const ctx = setupTestDatabase();

  it('shows the dedicated-team pattern: new chats reach the demo bot, its handovers reach skilled agents', async () => {
    const { account } = await createAccount(ctx.db, {
      name: 'Demo',
      adminEmail: 'demo-seed@example.test',
      adminPassword: 'demo-seed-password-k7',
    });
    const demo = await seedDemo(ctx.db, { accountId: account.id, webhookUrl: 'http://127.0.0.1:3001/webhook' });
    const token = (await authorize(ctx.db, { apiKey: demo.apiKey })).accessToken;
    const teams = (await botApi('GET', '/teams', { token })).body.response as { team_id: number; team_name: string }[];
    const support = teams.find((t) => t.team_name === 'Support')!;
    const listed = (await botApi('GET', '/chats', { token })).body.response.chats as {
      channel: string;
      assignee: string | null;
      asset: { id: number };
    }[];
    assert.equal(listed.find((c) => c.channel === 'livechat')?.assignee, 'va-demo-bot');
    assert.equal(listed.find((c) => c.channel === 'sms')?.assignee, 'alex.agent');

    const fresh = await botApi('POST', '/chats', {
      token,
      body: {
        channel: 'sms',
        asset_id: listed.find((c) => c.channel === 'sms')!.asset.id,
        customer: { destination_id: '+15550199' },
      },
    });
    assert.equal(fresh.body.response.team_name, 'Virtual Agents');
    assert.equal(fresh.body.response.assignee, 'va-demo-bot');

    const handover = await botApi('PATCH', `/internal/chats/${fresh.body.response.chat_id}`, {
      token,
      body: { transfer: { teamid: support.team_id, skill_name: 'technical' } },
    });
    assert.equal(handover.status, 202);
    const after = await botApi('GET', `/chats/${fresh.body.response.chat_id}`, { token });
    assert.equal(after.body.response.assignee, 'alex.agent');

    // A widget customer's "Talk to a person" reaches Support's Alex, not the bot again (the
    // Virtual Agents team's only person is away): the demo bot's fallback team is Support.
    const visitor = await widgetApi('POST', `/apps/${demo.livechatAssetId}/visitors`, { body: {} });
    const customer = visitor.body.response.token as string;
    const started = await widgetApi('POST', '/chats', { token: customer, body: { text: 'Hello' } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const chatId = started.body.response.chat_id as string;
    const asked = await widgetApi('POST', `/chats/${chatId}/person-request`, { token: customer, body: {} });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.response.handled_by, 'person');
    const taken = await botApi('GET', `/chats/${chatId}`, { token });
    assert.deepEqual([taken.body.response.team_name, taken.body.response.assignee], ['Support', 'alex.agent']);
  });

  it('creates one agent who signs in to the workspace with the printed password and sees the handed-over chat', async () => {
    const { account } = await createAccount(ctx.db, {
      name: 'Demo agent',
      adminEmail: 'demo-agent-seed@example.test',
      adminPassword: 'demo-seed-password-k7',
    });
    await seedDemo(ctx.db, { accountId: account.id, webhookUrl: 'http://127.0.0.1:3001/webhook', agentPassword: 'printed-demo-pw-42' });
    const alex = new ApiClient('agent');
    const login = await alex.login(DEMO_AGENT_EMAIL, 'printed-demo-pw-42');
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.response.login_id, 'alex.agent');
    const mine = (await alex.get('/chats')).body.response.mine as { channel: string; awaiting_reply: boolean }[];
    assert.deepEqual(
      mine.map((m) => [m.channel, m.awaiting_reply]),
      [['sms', true]],
    );
  });
});
