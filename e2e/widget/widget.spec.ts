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
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    await page.goto(`${shop.origin}/`);
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await expect(launcher).toBeVisible();
    await launcher.click();
    // Open, the launcher says what it does: it hides the panel, the conversation stays.
    await expect(page.getByRole('button', { name: 'Hide chat' })).toBeVisible();
    const chat = page.frameLocator(`iframe[title="Chat with ${asset.name}"]`);
    // One control hides the panel: the chat page in the frame has no second one.
    await expect(chat.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await expect(chat.getByRole('button', { name: /hide|close/i })).toHaveCount(0);
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
    // A correct embed leaves the host page's console clean of the widget's postMessage.
    expect(consoleLines.filter((l) => /postMessage|target origin/i.test(l))).toEqual([]);
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
  // The bot's quick reply (the widget's own "Talk to a person" button stands beside the log).
  await expect(chat.getByRole('group', { name: 'Quick replies' }).last().getByRole('button', { name: 'Talk to a person' })).toBeVisible();
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
    const warned = page.waitForEvent('console', {
      predicate: (m) => m.type() === 'warning' && /not among the allowed origins/.test(m.text()),
    });
    const scriptLoaded = page.waitForResponse((r) => r.url().includes('/widget.js'));
    await page.goto(`${other.origin}/`);
    // The site owner learns why nothing appears, and where to fix it.
    expect((await warned).text()).toContain(`origin ${other.origin} is not among the allowed origins`);
    // It names the field as the console labels it (docs/guide/widget.md quotes the same words).
    expect((await warned).text()).toContain('under "Allowed websites" in the asset\'s chat widget settings (admin pages, Channel assets)');
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
    await page.getByRole('group', { name: 'Quick replies' }).last().getByRole('button', { name: 'Talk to a person' }).focus();
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

test('an LLM bot typing and streaming: the status line shows typing, the reply grows live, then settles as one announced message', async ({
  request,
  browser,
  baseURL,
}) => {
  // The bot side is driven with the real bot API calls an LLM bot makes (its webhook answers nothing).
  const { asset, va } = await setUp(request);
  // Events are left for the bot to pull: no failing webhook hands the chat on mid-test.
  const pull = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { delivery_mode: 'pull' } });
  expect(pull.status(), await pull.text()).toBe(200);
  const auth = await request.post('/api/v1/authorize', { data: { api_key: va.api_key } });
  expect(auth.status(), await auth.text()).toBe(200);
  const token = (await auth.json()).response.access_token as string;
  const bot = async (method: 'post' | 'put' | 'patch', path: string, data: unknown, status = 200) => {
    const res = await request[method](`/api/v1${path}`, { headers: { access_token: token }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(status);
    return (await res.json()).response;
  };
  const customer = await customerPage(browser);
  try {
    const page = customer.page;
    await page.setViewportSize(PHONE);
    await page.goto(`${baseURL}/chat/${asset.id}`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How much is the answer?');
    const started = page.waitForResponse((r) => r.url().endsWith('/api/widget/chats') && r.request().method() === 'POST');
    await box.press('Enter');
    const chatId = (await (await started).json()).response.chat_id as string;
    const log = page.getByRole('log');
    const status = page.getByRole('status');
    await expect(log).toContainText('How much is the answer?');

    // Typing: the status line (a polite role=status region) names who writes (the bot the line under
    // the title names), with the VA's status text when it gives one.
    await bot('put', `/chats/${chatId}/typing`, { on: true, ttl_seconds: 30 });
    await expect(status).toHaveText(`${va.name} is typing…`);
    await bot('put', `/chats/${chatId}/typing`, { on: true, ttl_seconds: 30, status_text: 'Looking that up…' });
    await expect(status).toHaveText('Looking that up…');
    await bot('put', `/chats/${chatId}/typing`, { on: false });
    await expect(status).toHaveText('');
    // A short typing runs out by itself on the page.
    await bot('put', `/chats/${chatId}/typing`, { on: true, ttl_seconds: 1 });
    await expect(status).toHaveText(`${va.name} is typing…`);
    await expect(status).toHaveText('', { timeout: 5_000 });

    // A streamed reply: the text grows in a draft bubble, hidden from the log's announcements.
    const opened = await bot('post', `/chats/${chatId}/messages`, { type: 'outbound', stream: true, text: 'The answer' }, 201);
    const draft = page.locator('.msg.draft');
    await expect(draft).toContainText('The answer');
    await expect(draft).toHaveAttribute('aria-hidden', 'true');
    await expect(status).toHaveText(`${va.name} is typing…`);
    await bot('post', `/chats/${chatId}/messages/${opened.transid}/chunks`, { seq: 1, text: ' is' });
    await expect(draft).toContainText('The answer is');
    await bot('post', `/chats/${chatId}/messages/${opened.transid}/chunks`, { seq: 2, text: ' forty-two.' });
    await expect(draft).toContainText('The answer is forty-two.');
    // A status text while the reply is written (a tool the bot called) shows until the reply ends.
    await bot('put', `/chats/${chatId}/typing`, { on: true, ttl_seconds: 30, status_text: 'Checking the total…' });
    await expect(status).toHaveText('Checking the total…');
    await expect(page.locator('.msg.business:not(.draft)')).toHaveCount(0);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expectAccessible(page, `widget streaming a reply @${size.width}`);
    }

    // Closed: the draft becomes one message in the log (announced once), the status line clears.
    await bot('patch', `/chats/${chatId}/messages/${opened.transid}`, { stream_state: 'closed' });
    await expect(draft).toHaveCount(0);
    const finished = page.locator('.msg.business');
    await expect(finished).toHaveCount(1);
    await expect(finished).toHaveText(`${asset.name}: The answer is forty-two.`);
    await expect(finished).not.toHaveAttribute('aria-hidden', 'true');
    await expect(status).toHaveText('');

    // A reload shows the finished reply once, from the transcript.
    await page.reload();
    await expect(page.locator('.msg.business')).toHaveText([`${asset.name}: The answer is forty-two.`]);
  } finally {
    await customer.close();
  }
});
