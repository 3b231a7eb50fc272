/**
 * The console's chat page and the agent workspace through a restart: a server of this test's own
 * is stopped under both pages, their reads fail meanwhile and their streams' retries are answered
 * 503 (as in a database outage), and it is started again; without a reload, each page's live view
 * comes back and shows what was written after the restart.
 */
import type { Route } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expect, test } from '../fixtures';
import { ownServer } from '../own-server';
import { acceptInvite } from './person';

test("the console's chat page and the workspace reconnect after the server restarts, and show what came meanwhile", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(420_000);
  const server = await ownServer();
  const admin = await browser.newContext();
  const agent = await browser.newContext();
  const request = await playwright.request.newContext({ baseURL: server.base });
  try {
    expect((await request.post('/api/admin/login', { data: E2E_ADMIN })).status()).toBe(200);
    const post = async (path: string, data: unknown, headers: Record<string, string> = {}) => {
      const res = await request.post(path, { data, headers });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
      return (await res.json()).response;
    };
    // Chats of the asset wait in a team of people (no auto-assign): the workspace's queue.
    const people = await post('/api/admin/teams', { name: 'Reconnect people', auto_assign: false });
    const user = await post('/api/admin/users', {
      kind: 'agent',
      login_id: 'reconnect-agent',
      name: 'Reconnect Agent',
      email: 'reconnect-agent@example.test',
      availability: 'available',
      team_ids: [people.id],
    });
    const invite = await post(`/api/admin/users/${user.id}/invite`, {});
    const asset = await post('/api/admin/assets', { channel: 'livechat', name: 'Reconnect desk' });
    await post('/api/admin/routing-rules', {
      name: 'To people',
      position: 0,
      conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
      team_id: people.id,
    });
    const customer = async (text: string) => {
      const visitor = await post(`/api/widget/apps/${asset.id}/visitors`, undefined);
      const auth = { authorization: `Bearer ${visitor.token}` };
      const chat = await post('/api/widget/chats', { text }, auth);
      return { chatId: chat.chat_id as string, say: (t: string) => post(`/api/widget/chats/${chat.chat_id}/messages`, { text: t }, auth) };
    };
    const first = await customer('First customer here');

    // The person sets their password through the invite and sees the chat waiting.
    const agentPage = await agent.newPage();
    await acceptInvite(agentPage, invite.invite_url, server.base);
    await expect(agentPage.getByRole('heading', { name: 'Queue (1)' })).toBeVisible();
    const reconnecting = agentPage.getByText('reconnecting…');
    await expect(reconnecting).toBeHidden();

    // The administrator follows the chat on its console page.
    const adminPage = await admin.newPage();
    expect((await adminPage.request.post(`${server.base}/api/admin/login`, { data: E2E_ADMIN })).status()).toBe(200);
    await adminPage.goto(`${server.base}/admin/chats/${first.chatId}`);
    const transcript = adminPage.getByRole('list', { name: 'Transcript' });
    await expect(transcript.locator('[data-type="inbound"]')).toHaveText([/First customer here/]);
    await first.say('Are you there?');
    await expect(transcript.locator('[data-type="inbound"]')).toHaveText([/First customer here/, /Are you there\?/]);

    // The server stops: the workspace says it is reconnecting.
    await server.stop();
    await expect(reconnecting).toBeVisible();
    // The pages read again meanwhile (the browser back online, as after a network drop) and every
    // try fails: they keep what they show and their live views (the workspace was replaced by
    // "could not load", the console's chat page closed its stream, both for good).
    const failedReads = { console: 0, workspace: 0 };
    adminPage.on('requestfailed', (r) => {
      if (new URL(r.url()).pathname === `/api/admin/chats/${first.chatId}`) failedReads.console += 1;
    });
    agentPage.on('requestfailed', (r) => {
      if (new URL(r.url()).pathname === '/api/agent/me') failedReads.workspace += 1;
    });
    for (const context of [admin, agent]) {
      await context.setOffline(true);
      await context.setOffline(false);
    }
    // The first try and both retries.
    await expect.poll(() => Math.min(failedReads.console, failedReads.workspace), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    // Meanwhile the streams' retries are answered 503 2050, as while the database cannot be reached:
    // an answer that is no event stream makes the browser's EventSource give up for good, so the
    // pages must open their streams again themselves.
    const refused = { console: 0, workspace: 0 };
    const unavailable = (page: keyof typeof refused) => (route: Route) => {
      refused[page] += 1;
      return route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '5' },
        body: JSON.stringify({ status_code: 2050, description: 'Service temporarily unavailable', response: null }),
      });
    };
    const consoleStream = '**/api/admin/chats/*/stream';
    const workspaceStream = '**/api/agent/stream*';
    await adminPage.route(consoleStream, unavailable('console'));
    await agentPage.route(workspaceStream, unavailable('workspace'));
    await expect.poll(() => Math.min(refused.console, refused.workspace), { timeout: 30_000 }).toBeGreaterThan(0);
    await server.start();
    await Promise.all([adminPage.unroute(consoleStream), agentPage.unroute(workspaceStream)]);
    await expect(reconnecting).toBeHidden({ timeout: 60_000 });

    // Written after the restart, shown live on both pages without a reload.
    await first.say('Back after the restart');
    await customer('Second customer here');
    await expect(transcript.locator('[data-type="inbound"]')).toHaveText(
      [/First customer here/, /Are you there\?/, /Back after the restart/],
      { timeout: 30_000 },
    );
    await expect(agentPage.getByRole('heading', { name: 'Queue (2)' })).toBeVisible({ timeout: 30_000 });
    await expect(agentPage.getByText('The workspace could not load')).toHaveCount(0);
  } finally {
    await request.dispose();
    await Promise.all([admin.close(), agent.close()]);
    await server.dispose();
  }
});
