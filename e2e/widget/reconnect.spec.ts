/**
 * The widget through a service that goes away: a server of this test's own (the same build, its
 * own embedded database) is stopped and started again under an open chat, and the database's
 * "cannot be reached" answer (503 2050) is given to the page's opening. The customer keeps their
 * credential and their chat, sees that the page is reconnecting, and then sees every message once,
 * including a streamed reply whose chunks and close came while the page was away.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expect, test } from '../fixtures';
import { ownServer } from '../own-server';

const token = (page: Page, appId: number) =>
  page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) || '{}').token as string | undefined, `va-chat:${appId}`);

/**
 * A livechat app routed to a team whose one VA pulls its events (no failing webhook hands a chat
 * on mid-test), made by the signed-in administrator; names start with `label`.
 */
async function pullingBotApp(request: APIRequestContext, label: string) {
  expect((await request.post('/api/admin/login', { data: E2E_ADMIN })).status()).toBe(200);
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const team = await post('/api/admin/teams', { name: `${label} bots`, auto_assign: true });
  const asset = await post('/api/admin/assets', { channel: 'livechat', name: `${label} shop` });
  await post('/api/admin/routing-rules', {
    name: label,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: team.id,
  });
  const va = await post('/api/admin/virtual-agents', {
    name: `${label} Bot`,
    description: 'writes through the bot API',
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received'],
    team_id: team.id,
  });
  expect((await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { delivery_mode: 'pull' } })).status()).toBe(200);
  return { asset, va };
}

test('the widget keeps its chat through a restart and an outage: it says it is reconnecting, then shows every message once', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(420_000);
  const server = await ownServer();
  const context = await browser.newContext();
  try {
    const request = await playwright.request.newContext({ baseURL: server.base });
    const post = async (path: string, data: unknown, headers: Record<string, string> = {}, status = 201) => {
      const res = await request.post(path, { data, headers });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
      return (await res.json()).response;
    };
    const { asset, va } = await pullingBotApp(request, 'Reconnect');
    const accessToken = (await post('/api/v1/authorize', { api_key: va.api_key }, {}, 200)).access_token as string;
    const bot = (path: string, data: unknown, status = 201, method: 'post' | 'patch' = 'post') =>
      request[method](`/api/v1${path}`, { data, headers: { access_token: accessToken } }).then(async (res) => {
        expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
        return (await res.json()).response;
      });

    const page = await context.newPage();
    await page.goto(`${server.base}/chat/${asset.id}`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello before the restart');
    const started = page.waitForResponse((r) => r.url().endsWith('/api/widget/chats') && r.request().method() === 'POST');
    await box.press('Enter');
    const chatId = (await (await started).json()).response.chat_id as string;
    const credential = await token(page, asset.id);
    expect(credential).toBeTruthy();
    const replies = page.locator('.msg.business:not(.draft)');
    const reconnecting = page.getByText('Reconnecting…');
    await bot(`/chats/${chatId}/messages`, { type: 'outbound', text: 'one' });
    await expect(replies).toHaveText(['Reconnect shop: one']);
    await expect(reconnecting).toBeHidden();

    // The server stops: the stream ends, every try fails, and the page says so.
    await server.stop();
    await expect(reconnecting).toBeVisible();
    // While it is down, and for a while after it is back, the page cannot reach the stream.
    await page.route('**/api/widget/chats/*/stream*', (route) => route.abort('connectionrefused'));
    await server.start();

    // Meanwhile the bot writes a message, a streamed reply (its chunks and its close) and one more.
    await bot(`/chats/${chatId}/messages`, { type: 'outbound', text: 'two' });
    const opened = await bot(`/chats/${chatId}/messages`, { type: 'outbound', stream: true, text: 'Part A' });
    await bot(`/chats/${chatId}/messages/${opened.transid}/chunks`, { seq: 1, text: ' and part B' }, 200);
    await bot(`/chats/${chatId}/messages/${opened.transid}`, { stream_state: 'closed' }, 200, 'patch');
    await bot(`/chats/${chatId}/messages`, { type: 'outbound', text: 'three' });
    await expect(reconnecting).toBeVisible();

    // The stream is reachable again: the page resumes after the last message it held.
    await page.unroute('**/api/widget/chats/*/stream*');
    await expect(reconnecting).toBeHidden({ timeout: 60_000 });
    await expect(replies).toHaveText([
      'Reconnect shop: one',
      'Reconnect shop: two',
      'Reconnect shop: Part A and part B',
      'Reconnect shop: three',
    ]);
    await expect(page.locator('.msg.draft')).toHaveCount(0);
    expect(await token(page, asset.id), 'the credential was kept').toBe(credential);

    // The database cannot be reached when the page opens (503 2050): the page keeps the credential,
    // says it is reconnecting, and opens the same chat once the service answers.
    let outage = true;
    await page.route('**/api/widget/chats/current', (route) =>
      outage
        ? route.fulfill({
            status: 503,
            headers: { 'content-type': 'application/json', 'retry-after': '1' },
            body: JSON.stringify({ status_code: 2050, description: 'Service temporarily unavailable', response: {} }),
          })
        : route.continue(),
    );
    await page.reload();
    await expect(reconnecting).toBeVisible();
    expect(await token(page, asset.id)).toBe(credential);
    outage = false;
    await expect(reconnecting).toBeHidden({ timeout: 60_000 });
    await expect(replies).toHaveText([
      'Reconnect shop: one',
      'Reconnect shop: two',
      'Reconnect shop: Part A and part B',
      'Reconnect shop: three',
    ]);
    await expect(page.locator('.msg.customer')).toHaveText(['You: Hello before the restart']);
    expect(await token(page, asset.id)).toBe(credential);
    // And it is live again.
    await bot(`/chats/${chatId}/messages`, { type: 'outbound', text: 'four' });
    await expect(replies).toHaveCount(5);
    await request.dispose();
  } finally {
    await context.close();
    await server.dispose();
  }
});

test('the widget says it is reconnecting while its calls answer 503 2050 with its stream still open, and stops once a read answers', async ({
  page,
  request,
}) => {
  const { asset } = await pullingBotApp(request, `Outage ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`);

  await page.goto(`/chat/${asset.id}`);
  const box = page.getByRole('textbox', { name: 'Message' });
  const mine = page.locator('.msg.customer');
  const reconnecting = page.getByText('Reconnecting…');
  const unreachable = page.getByText('The chat cannot be reached at the moment');
  await box.fill('Hello');
  await box.press('Enter');
  await expect(mine).toHaveText(['You: Hello']);
  await expect(reconnecting).toBeHidden();

  // The database alone is out of reach: the server (and the open stream) stay up, every read and
  // write answers 503 2050. The page must say so, not just refuse the one message.
  let outage = true;
  const streams: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/stream')) streams.push(r.url());
  });
  const unavailable = (route: Parameters<Parameters<typeof page.route>[1]>[0]) =>
    outage
      ? route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: JSON.stringify({ status_code: 2050, description: 'Service temporarily unavailable', response: {} }),
        })
      : route.continue();
  await page.route('**/api/widget/chats/*/messages', unavailable);
  await page.route(/\/api\/widget\/chats\/[0-9a-f-]{36}$/, unavailable);
  await box.fill('During the outage');
  await box.press('Enter');
  await expect(unreachable).toBeVisible();
  await expect(reconnecting).toBeVisible();
  await expect(box, 'the message stays in the box to send again').toHaveValue('During the outage');
  // Reads of the chat keep failing: still reconnecting after more than one of them.
  await page.waitForTimeout(3_500);
  await expect(reconnecting).toBeVisible();

  outage = false;
  await expect(reconnecting).toBeHidden({ timeout: 30_000 });
  await expect(unreachable).toBeHidden();
  expect(streams, 'the live stream stayed open throughout').toEqual([]);
  await box.press('Enter');
  await expect(mine).toHaveText(['You: Hello', 'You: During the outage']);
});
