import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Browser, FrameLocator, Page } from '@playwright/test';
import { startBot } from '@/examples/bot/bot';
import { E2E_ADMIN } from '../../playwright.config';
import { DESKTOP, expectAccessible, PHONE } from '../admin/axe';
import { expect, test } from '../fixtures';

/** A website on another origin (another port of this host) whose page carries the embed snippet. */
async function hostSite(snippet: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Our shop</h1><p>Welcome.</p></main>${snippet}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A livechat app whose chats reach the example bot, and a team of people with an available agent for its handovers. */
async function setUp(request: APIRequestContext) {
  const login = await request.post('/api/admin/login', { data: E2E_ADMIN });
  expect(login.status()).toBe(200);
  const s = suffix();
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const bots = await post('/teams', { name: `Widget bots ${s}`, auto_assign: true });
  const people = await post('/teams', { name: `Widget people ${s}`, auto_assign: true });
  await post('/users', {
    kind: 'agent',
    login_id: `widget-agent-${s}`,
    name: `Widget Agent ${s}`,
    availability: 'available',
    team_ids: [people.id],
  });
  const asset = await post('/assets', { channel: 'livechat', name: `Shop chat ${s}` });
  await post('/routing-rules', {
    name: `Widget ${s}`,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: bots.id,
  });
  const va = await post('/virtual-agents', {
    name: `Widget Bot ${s}`,
    description: 'answers the chat widget',
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    team_id: bots.id,
  });
  return { asset, va, people };
}

async function allowOrigins(request: APIRequestContext, assetId: number, origins: string[]) {
  const res = await request.patch(`/api/admin/assets/${assetId}`, { data: { allowed_origins: origins } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).response;
}

/** A browser of its own for the customer: no admin cookie, its own storage. */
async function customerPage(browser: Browser) {
  const context = await browser.newContext();
  return { page: await context.newPage(), close: () => context.close() };
}

test('embedded on an allowed website: a customer writes, the bot answers with quick replies, a click, a handover, a reload keeps the chat', async ({
  request,
  browser,
  baseURL,
}) => {
  const { asset, va, people } = await setUp(request);
  const bot = await startBot({
    baseUrl: baseURL!,
    apiKey: va.api_key,
    signingSecret: va.signing_secret,
    loginId: va.login_id,
    port: 0,
    handoverTeam: people.name,
    log: () => {},
  });
  const snippet = `<script src="${baseURL}/widget.js?app=${asset.id}" async></script>`;
  const shop = await hostSite(snippet);
  const allowed = await allowOrigins(request, asset.id, [shop.origin]);
  // The snippet the admin API hands out is the one on the shop's page.
  expect(allowed.widget.embed_html).toBe(snippet);
  expect(allowed.widget.url).toBe(`${baseURL}/chat/${asset.id}`);
  const customer = await customerPage(browser);
  try {
    const patched = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } });
    expect(patched.status()).toBe(200);
    const page = customer.page;
    await page.goto(`${shop.origin}/`);
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await expect(launcher).toBeVisible();
    await launcher.click();
    const chat = page.frameLocator(`iframe[title="Chat with ${asset.name}"]`);
    await writeAndGetQuickReplies(chat, 'Hello, <b>where</b> is my parcel?');

    // Text is shown as text: the markup is visible, not rendered.
    await expect(chat.locator('.msg.customer').first()).toContainText('Hello, <b>where</b> is my parcel?');
    await expect(chat.locator('.msg.customer b')).toHaveCount(0);

    // A quick reply click: the bot receives the contract's quick_reply_response and answers it.
    await chat.getByRole('button', { name: 'That is all, thanks' }).click();
    await expect(chat.getByRole('log')).toContainText('Glad I could help');

    // A reload keeps the conversation.
    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect(chat.getByRole('log')).toContainText('Glad I could help');
    await expect(chat.locator('.msg')).toHaveCount(4);

    // Asking for a person: the bot hands over and the customer sees a plain notice, without names.
    await chat.getByRole('textbox', { name: 'Message' }).fill('I want to talk to a person');
    await chat.getByRole('button', { name: 'Send' }).click();
    await expect(chat.getByRole('log')).toContainText('A person has joined the chat.');
    await expect(chat.getByRole('log')).not.toContainText('widget-agent');

    // Escape closes the panel and gives focus back to the launcher.
    await chat.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.locator('iframe')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open chat' })).toBeFocused();
  } finally {
    await customer.close();
    await shop.close();
    await bot.close();
  }
});

async function writeAndGetQuickReplies(chat: FrameLocator, text: string) {
  const box = chat.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeVisible();
  await box.fill(text);
  await box.press('Enter');
  await expect(chat.getByRole('log')).toContainText('Thanks, I have noted that');
  await expect(chat.getByRole('button', { name: 'Talk to a person' })).toBeVisible();
}

test('on a website that is not allowed the script does nothing, and the chat page cannot be framed there', async ({
  request,
  browser,
  baseURL,
}) => {
  const { asset } = await setUp(request);
  await allowOrigins(request, asset.id, ['https://shop.example']);
  const other = await hostSite(
    `<script src="${baseURL}/widget.js?app=${asset.id}"></script><iframe title="framed chat" src="${baseURL}/chat/${asset.id}"></iframe>`,
  );
  const customer = await customerPage(browser);
  try {
    const page = customer.page;
    const scriptLoaded = page.waitForResponse((r) => r.url().includes('/widget.js'));
    await page.goto(`${other.origin}/`);
    expect((await scriptLoaded).status()).toBe(200);
    await page.waitForLoadState('load');
    await expect(page.getByRole('button', { name: 'Open chat' })).toHaveCount(0);
    // frame-ancestors refuses the frame: its document never becomes the chat page.
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(async () => (frame ? await frame.locator('#composer').count() : 0)).toBe(0);
    const res = await page.request.get(`${baseURL}/chat/${asset.id}`);
    expect(res.headers()['content-security-policy']).toContain('frame-ancestors https://shop.example');
    expect(res.headers()['x-frame-options']).toBeUndefined();
  } finally {
    await customer.close();
    await other.close();
  }
});

test('the full-page chat passes axe at both widths and works by keyboard alone', async ({ request, browser, baseURL }) => {
  const { asset, va, people } = await setUp(request);
  const bot = await startBot({
    baseUrl: baseURL!,
    apiKey: va.api_key,
    signingSecret: va.signing_secret,
    loginId: va.login_id,
    port: 0,
    handoverTeam: people.name,
    log: () => {},
  });
  const customer = await customerPage(browser);
  try {
    const patched = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } });
    expect(patched.status()).toBe(200);
    const page: Page = customer.page;
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto(`${baseURL}/chat/${asset.id}`);
      await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
      await expectAccessible(page, `widget empty @${size.width}`);
    }
    // Keyboard only: Tab reaches the message box, Enter sends.
    await page.setViewportSize(PHONE);
    const box = page.getByRole('textbox', { name: 'Message' });
    for (let i = 0; i < 10 && !(await box.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(box).toBeFocused();
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Enter');
    const choice = page.getByRole('button', { name: 'That is all, thanks' });
    await expect(choice).toBeVisible();
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expectAccessible(page, `widget with quick replies @${size.width}`);
    }
    // The quick replies are reachable by Tab and answered with Enter.
    await page.getByRole('button', { name: 'Talk to a person' }).focus();
    await page.keyboard.press('Tab');
    await expect(choice).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('log')).toContainText('Glad I could help');
    // New messages are announced politely.
    await expect(page.getByRole('log')).toHaveAttribute('aria-live', 'polite');
  } finally {
    await customer.close();
    await bot.close();
  }
});
