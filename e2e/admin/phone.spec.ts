import type { Page } from '@playwright/test';
import { GUIDE_PAGES, guideHref } from '@/app/docs/_guide/pages';
import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { DESKTOP, PHONE } from './axe';
import { setUpBot, signIn } from './helpers';
import { expectReflows, expectTargetSizes } from './reflow';

/** The narrowest width WCAG 1.4.10 asks content to reflow to: a 1280 px screen at 400 % zoom. */
const NARROWEST = { width: 320, height: 720 };
/** A 1280 px screen at 200 % zoom: the console switches to its narrow layout here too. */
const ZOOMED = { width: 640, height: 400 };
const hideToasts = '.toasts { display: none !important; }';

/**
 * One state of a page at phone width (390 px): nothing sticks out sideways, pointer targets are
 * large enough, and a full-page screenshot is kept under test-results/screens for review; then
 * the same reflow check at 320 px and at 640 px (200 % zoom), and a laptop-width screenshot beside
 * the phone one.
 */
async function phoneState(page: Page, state: string, ready: () => Promise<void>) {
  await page.mouse.move(0, 0);
  for (const [size, label] of [
    [PHONE, '390'],
    [NARROWEST, '320'],
    [ZOOMED, '640'],
    [DESKTOP, '1280'],
  ] as const) {
    await page.setViewportSize(size);
    await ready();
    if (size !== DESKTOP) await expectReflows(page, state);
    if (size === PHONE) await expectTargetSizes(page, state);
    if (size === PHONE || size === DESKTOP) {
      await page.screenshot({ path: `test-results/screens/phone-walk/${state}-${label}.png`, fullPage: true, style: hideToasts });
    }
  }
  await page.setViewportSize(PHONE);
}

test('at phone width every console page and state fits the screen: no sideways scrolling, targets large enough', async ({
  page,
  request,
}) => {
  test.setTimeout(900_000);
  const receiver = await startReceiver();
  try {
    const heading = (name: string) => () => expect(page.getByRole('heading', { name, exact: true, level: 1 })).toBeVisible();
    await page.setViewportSize(PHONE);
    await page.goto('/admin/login');
    await phoneState(page, 'sign-in', () => expect(page.getByRole('heading', { name: 'Sign in', level: 2 })).toBeVisible());
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await phoneState(page, 'sign-in-refused', () => expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toBeVisible());

    await signIn(page, '/admin/chats');
    await page.setViewportSize(PHONE);
    receiver.replies.push(500, 500, 500, 500);
    const { asset, va, team } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: 'visitor-phone-with-a-rather-long-identifier@example.test', name: 'Philippa Phone-Wellington' },
        assignee: va.login_id,
        alias_id: 'CRM-PHONE-0000000000000000000000001',
        messages: [
          { type: 'inbound', text: 'Hello, I would like to change the delivery address of order 12345678901234567890.' },
          { type: 'inbound', text: 'Here it is', attachment: { type: 'image', url: 'https://files.example/a-very-long-file-name.png' } },
        ],
      },
    });
    const chat = (await created.json()).response;
    await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers: { access_token: token },
      data: { type: 'outbound', text: 'Of course. Which address should it go to?' },
    });

    await page.goto('/admin/chats');
    await phoneState(page, 'chats', () => expect(page.getByRole('link', { name: `Chat ${chat.chat_id}` })).toBeVisible());

    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await assigned.getByText('Event body').click();
    await phoneState(page, 'chat-detail', () =>
      expect(page.getByRole('heading', { name: 'Chat with Philippa Phone-Wellington' })).toBeVisible(),
    );

    await page.goto('/admin/deliveries');
    await phoneState(page, 'deliveries', () => expect(page.getByRole('figure', { name: 'Deliveries per minute' })).toBeVisible());

    const ruleName = `Phone rule for a team with a long name ${team.id}`;
    const rule = await page.request.post('/api/admin/routing-rules', {
      data: {
        name: ruleName,
        team_id: team.id,
        conditions: [{ field: 'channel', op: 'equals', value: 'livechat' }],
        enabled: true,
      },
    });
    expect(rule.status()).toBe(201);
    await page.goto('/admin/routing');
    await phoneState(page, 'routing', () => expect(page.getByRole('row').filter({ hasText: ruleName })).toBeVisible());
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await phoneState(page, 'routing-new-rule-refused', () =>
      expect(page.getByRole('form', { name: 'New routing rule' }).getByText('Enter the name.')).toBeVisible(),
    );
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Delete ${ruleName}` }).click();
    await phoneState(page, 'routing-delete-confirmation', () =>
      expect(page.getByRole('dialog', { name: `Delete rule ${ruleName}?` })).toBeVisible(),
    );
    await page.keyboard.press('Escape');

    await page.goto('/admin/teams');
    await phoneState(page, 'teams', heading('Teams & skills'));

    await page.goto('/admin/assets');
    await phoneState(page, 'assets', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());

    for (const tab of ['agents', 'managers']) {
      await page.goto(`/admin/users?tab=${tab}`);
      await phoneState(page, `users-${tab}`, () => expect(page.getByRole('tab', { selected: true })).toBeVisible());
    }
    await page.goto('/admin/virtual-agents');
    await phoneState(page, 'virtual-agents', () => expect(page.getByRole('heading', { level: 1, name: 'Virtual Agents' })).toBeVisible());
    await page.goto('/admin/users?tab=agents');
    await page.getByRole('button', { name: 'Add agent' }).click();
    await page.getByRole('form', { name: 'Add agent' }).getByRole('button', { name: 'Add agent' }).click();
    await phoneState(page, 'users-add-agent-refused', () =>
      expect(page.getByRole('form', { name: 'Add agent' }).locator('.field-error').first()).toBeVisible(),
    );

    await page.goto('/admin/virtual-agents/new');
    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await phoneState(page, 'add-va-refused', () => expect(form.getByText('Enter the name.')).toBeVisible());
    await form.getByLabel('Name', { exact: true }).fill(`Phone bot with a long name ${team.id}`);
    await form.getByLabel('Team', { exact: true }).selectOption({ label: team.name });
    await form.getByLabel('Description').fill('Drawn at phone width');
    await form.getByLabel('Webhook URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await phoneState(page, 'credentials-box', () =>
      expect(page.getByRole('heading', { name: 'Virtual Agent registered: its credentials' })).toBeVisible(),
    );

    await page.goto(`/admin/virtual-agents/${va.id}`);
    // The request log is written in batches a moment after the answers.
    await expect(async () => {
      await page.reload();
      await expect(page.locator('[data-testid="bot-request"]').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await phoneState(page, 'va-detail', () => expect(page.getByRole('heading', { name: va.name, level: 1 })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key…' }).click();
    await phoneState(page, 'va-rotate-confirmation', () => expect(page.getByRole('dialog', { name: 'Rotate API key?' })).toBeVisible());
    await page.keyboard.press('Escape');

    await page.goto('/admin/audit');
    await phoneState(page, 'audit', () => expect(page.getByRole('region', { name: 'Audit entries' })).toBeVisible());

    await page.goto(`/admin/trace?id=${chat.chat_id}`);
    await phoneState(page, 'trace', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());

    await page.goto('/admin/chats');
    await page.getByRole('button', { name: 'Menu' }).click();
    await phoneState(page, 'menu-open', () => expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible());

    for (const { slug, title } of GUIDE_PAGES) {
      await page.goto(guideHref(slug));
      await phoneState(page, `docs-${slug}`, () => expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible());
    }
  } finally {
    receiver.server.close();
  }
});
