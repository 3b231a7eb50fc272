import type { APIRequestContext, Page } from '@playwright/test';
import { startBot } from '@/examples/bot/bot';
import { E2E_ADMIN } from '../../playwright.config';
import { DESKTOP, expectAccessible, PHONE } from '../admin/axe';
import { signIn } from '../admin/helpers';
import { expect, test } from '../fixtures';
import { PERSON_PASSWORD as PASSWORD, personPage } from './person';

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * A livechat app whose chats reach the example bot (team "bots", auto-assign on) and a team of
 * people (auto-assign off, so handed-over chats wait in the queue to be picked) with two agents,
 * each invited through the admin API; plus an agent of another team.
 */
async function setUp(request: APIRequestContext, { autoAssign = false }: { autoAssign?: boolean } = {}) {
  expect((await request.post('/api/admin/login', { data: E2E_ADMIN })).status()).toBe(200);
  const s = suffix();
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const bots = await post('/teams', { name: `Agent e2e bots ${s}`, auto_assign: true });
  const people = await post('/teams', { name: `Agent e2e people ${s}`, auto_assign: autoAssign });
  const others = await post('/teams', { name: `Agent e2e others ${s}`, auto_assign: false });
  const person = async (name: string, teamId: number) => {
    const user = await post('/users', {
      kind: 'agent',
      login_id: `${name}-${s}`,
      name: `${name} ${s}`,
      email: `${name}-${s}@example.test`,
      availability: 'available',
      team_ids: [teamId],
    });
    const invite = await post(`/users/${user.id}/invite`, {});
    return { loginId: user.login_id as string, email: invite.email as string, inviteUrl: invite.invite_url as string };
  };
  const one = await person('one', people.id);
  const two = await person('two', people.id);
  const stranger = await person('stranger', others.id);
  const asset = await post('/assets', { channel: 'livechat', name: `Agent e2e shop ${s}` });
  await post('/routing-rules', {
    name: `Agent e2e ${s}`,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: bots.id,
  });
  const va = await post('/virtual-agents', {
    name: `Agent e2e Bot ${s}`,
    description: 'answers first',
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    team_id: bots.id,
  });
  return { asset, va, people, one, two, stranger };
}

async function startExampleBot(request: APIRequestContext, baseURL: string, va: Record<string, string | number>, team: string) {
  const bot = await startBot({
    baseUrl: baseURL,
    apiKey: String(va.api_key),
    signingSecret: String(va.signing_secret),
    loginId: String(va.login_id),
    port: 0,
    handoverTeam: team,
    log: () => {},
  });
  const patched = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } });
  expect(patched.status()).toBe(200);
  return bot;
}

/** The customer writes on the full-page chat until the bot hands over to the people's queue. */
async function customerAsksForPerson(page: Page, baseURL: string, assetId: number) {
  await page.goto(`${baseURL}/chat/${assetId}`);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello, my parcel is late');
  await box.press('Enter');
  await expect(page.getByRole('log')).toContainText('Thanks, I have noted that');
  await box.fill('agent please');
  await box.press('Enter');
  await expect(page.getByRole('log')).toContainText('Connecting you with a person');
}

test('the whole loop: customer, bot, "agent please", a person picks and answers live, hands back, the bot closes', async ({
  request,
  browser,
  baseURL,
}) => {
  const { asset, va, people, one, stranger } = await setUp(request);
  const bot = await startExampleBot(request, baseURL!, va, people.name);
  const customer = await browser.newContext();
  const agent = await personPage(browser, one.inviteUrl, baseURL!);
  const outsider = await personPage(browser, stranger.inviteUrl, baseURL!);
  try {
    const page = await customer.newPage();
    const workspace = agent.page;
    await expect(workspace.getByRole('heading', { name: /^Queue/ })).toBeVisible();
    await customerAsksForPerson(page, baseURL!, asset.id);

    // The chat arrives in the queue without a reload, with why it is there; the title counts it.
    const item = workspace.getByRole('button', { name: /transferred/ });
    await expect(item).toBeVisible();
    await expect(workspace).toHaveTitle(/^\(1\) Agent workspace/);
    // Another team's person never sees it.
    await expect(outsider.page.getByText('Nobody is waiting.')).toBeVisible();

    await item.click();
    await expect(workspace.getByRole('heading', { name: /lc-/, level: 2 })).toBeFocused();
    const transcript = workspace.getByRole('log', { name: 'Transcript' });
    await expect(transcript).toContainText('agent please');
    await expect(transcript).toContainText('Connecting you with a person');
    await expect(transcript).toContainText('Internal note');
    await workspace.getByRole('button', { name: 'Pick this chat' }).click();
    const reply = workspace.getByRole('textbox', { name: 'Message' });
    await expect(reply).toBeFocused();
    await reply.fill('Hi, I am a person. Let me look at your parcel.');
    await workspace.getByRole('button', { name: 'Send' }).click();
    await expect(reply).toBeFocused();
    await expect(reply).toHaveValue('');

    // The customer sees the person at once.
    await expect(page.getByRole('log')).toContainText('A person has joined the chat.');
    await expect(page.getByRole('log')).toContainText('Let me look at your parcel.');
    // And the customer's answer reaches the person live.
    await page.getByRole('textbox', { name: 'Message' }).fill('Thank you!');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect(transcript).toContainText('Thank you!');

    // The person starts the note while the tag is still saving (its request held back a moment):
    // the tag's end leaves focus, and what they type, in the note.
    let releaseTag = () => {};
    const tagHeld = new Promise<void>((resolve) => {
      releaseTag = resolve;
    });
    await workspace.route('**/tags', async (route) => {
      await tagHeld;
      await route.continue();
    });
    await workspace.getByRole('textbox', { name: 'Add a tag' }).fill('parcel');
    await workspace.getByRole('button', { name: 'Add', exact: true }).click();
    const note = workspace.getByLabel('Note (people and administrators only)');
    await note.fill('Parcel found, ');
    releaseTag();
    await expect(workspace.getByText('parcel', { exact: true })).toBeVisible();
    await expect(workspace.getByRole('textbox', { name: 'Add a tag' })).toHaveValue('');
    // The tag's end has run (its form is cleared); its focus move would land within a frame or two.
    await workspace.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await expect(note).toBeFocused();
    await workspace.keyboard.type('handing back.');
    await expect(note).toHaveValue('Parcel found, handing back.');
    await workspace.unroute('**/tags');
    await workspace.getByRole('button', { name: 'Add note' }).click();
    await expect(transcript).toContainText('Parcel found, handing back.');
    await expect(page.getByRole('log')).not.toContainText('Parcel found');

    // Hand back to the bot: it is told chat.assigned and greets the customer again. The chat is
    // now outside the person's teams: the page does not ask for it again (it would get 2085).
    const refused: string[] = [];
    workspace.on('response', (r) => {
      if (r.status() === 404 && r.url().includes('/api/agent/')) refused.push(r.url());
    });
    await workspace.getByLabel('To', { exact: true }).selectOption({ label: `${va.name} (${va.login_id})` });
    await workspace.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect(workspace.getByRole('status').filter({ hasText: `Chat handed to ${va.login_id}.` })).toBeFocused();
    // The bot holds the chat again and answers the customer's last message.
    await expect(page.getByRole('log').getByText(/Thanks, I have noted that/)).toHaveCount(2);
    // "That is all": the bot closes the chat it was handed back.
    await page.getByRole('button', { name: 'That is all, thanks' }).last().click();
    await expect(page.getByRole('log')).toContainText('Glad I could help');
    await expect(page.getByRole('log')).toContainText('This chat has ended.');
    expect(refused, 'workspace requests refused after the hand-back').toEqual([]);
  } finally {
    await Promise.all([customer.close(), agent.context.close(), outsider.context.close()]);
    await bot.close();
  }
});

test('two people pick the same chat: one wins, the other is told at once', async ({ request, browser, baseURL }) => {
  const { asset, va, people, one, two } = await setUp(request);
  const bot = await startExampleBot(request, baseURL!, va, people.name);
  const customer = await browser.newContext();
  const first = await personPage(browser, one.inviteUrl, baseURL!);
  const second = await personPage(browser, two.inviteUrl, baseURL!);
  try {
    await customerAsksForPerson(await customer.newPage(), baseURL!, asset.id);
    for (const p of [first.page, second.page]) {
      await p.getByRole('button', { name: /transferred/ }).click();
      await expect(p.getByRole('button', { name: 'Pick this chat' })).toBeVisible();
    }
    // Both picks are held in the browsers until both are sent: otherwise, on a slow machine, the
    // first pick's live update reached the second page and took its button away before its click.
    let sent = 0;
    let release = () => {};
    const bothSent = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const p of [first.page, second.page]) {
      await p.route(/\/pick$/, async (route) => {
        if (++sent === 2) release();
        await bothSent;
        await route.continue();
      });
    }
    const answers = [first.page, second.page].map((p) => p.waitForResponse((r) => r.url().endsWith('/pick')));
    await Promise.all([
      first.page.getByRole('button', { name: 'Pick this chat' }).click(),
      second.page.getByRole('button', { name: 'Pick this chat' }).click(),
    ]);
    // Exactly one pick wins; the other is refused with 2083 at once.
    const statuses = await Promise.all(answers.map(async (a) => (await a).status()));
    expect([...statuses].sort()).toEqual([200, 409]);
    expect(sent, 'both picks went through the hold').toBe(2);
    const [winner, loser] = statuses[0] === 200 ? [first.page, second.page] : [second.page, first.page];
    await expect(winner.getByText('Assigned to you', { exact: true })).toBeVisible();
    // The loser is told in words, focus on the message, and sees who holds the chat now.
    const told = loser.getByRole('alert').filter({ hasText: 'Someone else picked this chat first' });
    await expect(told).toBeFocused();
    await expect(loser.getByText(/Held by (one|two)-/)).toBeVisible();
    await expect(loser.getByRole('button', { name: 'Pick this chat' })).toHaveCount(0);
  } finally {
    await Promise.all([customer.close(), first.context.close(), second.context.close()]);
    await bot.close();
  }
});

test('the workspace passes axe at 390 and 1280 px and works by keyboard: next chat, reply, close', async ({
  request,
  browser,
  baseURL,
}) => {
  const { asset, va, people, one } = await setUp(request);
  const bot = await startExampleBot(request, baseURL!, va, people.name);
  const customer = await browser.newContext();
  const agent = await personPage(browser, one.inviteUrl, baseURL!);
  try {
    const page = agent.page;
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expectAccessible(page, 'workspace empty');
    }
    await customerAsksForPerson(await customer.newPage(), baseURL!, asset.id);
    await expect(page.getByRole('button', { name: /transferred/ })).toBeVisible();
    await expect(page.getByText(/Alt.*N.*next chat/)).toBeVisible();

    // Alt+N opens the next chat and puts focus on its heading.
    await page.keyboard.press('Alt+KeyN');
    const title = page.locator('#conversation-title');
    await expect(title).toBeFocused();
    // Tab to the pick button and take the chat with Enter: focus moves to the reply box.
    for (
      let i = 0;
      i < 10 && !(await page.getByRole('button', { name: 'Pick this chat' }).evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    const reply = page.getByRole('textbox', { name: 'Message' });
    await expect(reply).toBeFocused();
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expectAccessible(page, 'workspace with a chat');
    }
    await page.locator('#pick-chat, #conversation-title').first().focus();
    await page.keyboard.press('Alt+KeyR');
    await expect(reply).toBeFocused();
    await page.keyboard.type('Typed with the keyboard only.');
    await page.keyboard.press('Tab');
    await expect(page.getByText('Attachment or quick replies')).toBeFocused();
    await reply.focus();
    // Send is the form's submit: reach it by Tab.
    for (let i = 0; i < 10 && !(await page.getByRole('button', { name: 'Send' }).evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    // A short window: the transcript scrolls, and the message just sent is brought into view.
    await page.setViewportSize({ width: DESKTOP.width, height: 420 });
    await page.keyboard.press('Enter');
    const log = page.getByRole('log', { name: 'Transcript' });
    await expect(log).toContainText('Typed with the keyboard only.');
    expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight), 'the transcript overflows its box').toBe(true);
    const shownInLog = () =>
      log.evaluate((el) => {
        const sent = [...el.querySelectorAll('li')].find((li) => li.textContent?.includes('Typed with the keyboard only.'));
        if (!sent) return false;
        const box = el.getBoundingClientRect();
        const item = sent.getBoundingClientRect();
        return item.top >= box.top - 1 && item.bottom <= box.bottom + 1;
      });
    await expect.poll(shownInLog, { message: 'the message just sent is scrolled into the transcript’s view' }).toBe(true);
    await page.setViewportSize(DESKTOP);
    // Alt+C closes the chat; focus lands on the notice saying so, never on the page body.
    await page.keyboard.press('Alt+KeyC');
    const notice = page.getByRole('status').filter({ hasText: 'Chat closed.' });
    await expect(notice).toBeFocused();
    await expect(page.getByText('No chats assigned to you.')).toBeVisible();
    await expect(page).toHaveTitle(/^Agent workspace/);
  } finally {
    await Promise.all([customer.close(), agent.context.close()]);
    await bot.close();
  }
});

test('an administrator invites a person from the console; the link is shown once and signs them in', async ({ page, browser, baseURL }) => {
  await signIn(page, '/admin/users');
  const s = suffix();
  const created = await page.request.post('/api/admin/users', {
    data: { kind: 'agent', login_id: `invited-${s}`, name: `Invited ${s}`, email: `invited-${s}@example.test` },
  });
  expect(created.status()).toBe(201);
  const user = (await created.json()).response;
  // A person without an email has no invite to offer: the row says what to add instead.
  const noEmail = await page.request.post('/api/admin/users', {
    data: { kind: 'agent', login_id: `no-email-${s}`, name: `No email ${s}` },
  });
  expect(noEmail.status()).toBe(201);
  const noEmailId = (await noEmail.json()).response.id;
  await page.reload();
  await expect(page.locator(`#user-${noEmailId}-no-email`)).toHaveText('Add an email (Edit) to invite');
  await expect(page.getByRole('button', { name: `Invite No email ${s} to the workspace` })).toHaveCount(0);
  const invite = page.getByRole('button', { name: `Invite Invited ${s} to the workspace` });
  await invite.click();
  const heading = page.getByRole('heading', { name: `Invite link for Invited ${s}` });
  await expect(heading).toBeFocused();
  const link = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  expect(link).toMatch(/\/agent\/invite#[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page, 'users page with an invite link');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('invite-reveal')).toHaveCount(0);
  await expect(invite).toBeFocused();

  const person = await personPage(browser, link, baseURL!);
  try {
    await expect(person.page.getByText(`invited-${s}`)).toBeVisible();
    // Spent: the same link again is refused in words.
    const again = await person.context.newPage();
    const url = new URL(link);
    await again.goto(`${baseURL}${url.pathname}${url.hash}`);
    await again.getByLabel('New password').fill(PASSWORD);
    await again.getByLabel('Repeat the password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(again.getByRole('alert').filter({ hasText: 'Invite link invalid, already used or expired' })).toBeFocused();
    expect(user.id).toBeGreaterThan(0);
  } finally {
    await person.context.close();
  }
});

test('availability decides where auto-assign sends a handed-over chat', async ({ request, browser, baseURL }) => {
  const { asset, va, people, one, two } = await setUp(request, { autoAssign: true });
  const bot = await startExampleBot(request, baseURL!, va, people.name);
  const customer = await browser.newContext();
  const agent = await personPage(browser, one.inviteUrl, baseURL!);
  const other = await personPage(browser, two.inviteUrl, baseURL!);
  try {
    // Both away: the handed-over chat waits in the queue.
    for (const p of [agent.page, other.page]) {
      const available = p.getByRole('switch', { name: 'Available for chats' });
      await expect(available).toBeChecked();
      await expect(available).toHaveText('On');
      await available.click();
      await expect(available).not.toBeChecked();
      await expect(available).toHaveText('Off (away)');
      await expect(available).toBeFocused();
    }
    await customerAsksForPerson(await customer.newPage(), baseURL!, asset.id);
    await expect(agent.page.getByRole('button', { name: /transferred/ })).toBeVisible();
    await expect(agent.page.getByRole('heading', { name: 'Mine (0)' })).toBeVisible();
    // Available again: auto-assign gives the waiting chat at once, and the page shows it live.
    await agent.page.getByRole('switch', { name: 'Available for chats' }).click();
    await expect(agent.page.getByRole('heading', { name: 'Mine (1)' })).toBeVisible();
    await expect(agent.page.getByRole('heading', { name: 'Queue (0)' })).toBeVisible();
    await expect(other.page.getByRole('heading', { name: 'Queue (0)' })).toBeVisible();
    await expect(other.page.getByRole('heading', { name: 'Mine (0)' })).toBeVisible();
  } finally {
    await Promise.all([customer.close(), agent.context.close(), other.context.close()]);
    await bot.close();
  }
});
