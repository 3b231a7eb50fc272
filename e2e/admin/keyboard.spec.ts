import type { Locator, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { DESKTOP, PHONE } from './axe';
import { setUpBot, uniqueSuffix } from './helpers';

/** Presses Tab (or Shift+Tab) until `target` has focus: the way a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach ${target} with the keyboard`);
}

/** A team of the test's own, so the team lists the walks choose from are never empty. */
async function makeTeam(page: Page) {
  const res = await page.request.post('/api/admin/teams', { data: { name: `Kbd team ${uniqueSuffix()}`, auto_assign: false } });
  expect(res.status()).toBe(201);
  // The page drew its team list before the team existed.
  await page.reload();
}

async function signInByKeyboard(page: Page, next: string) {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/admin/login?next=${encodeURIComponent(next)}`);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(E2E_ADMIN.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(E2E_ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[?]/g, '\\?')}$`));
}

test('sign in by keyboard: a refusal takes focus, then the first page heading does', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/admin/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  // Checked in the page with the contract's schema, in our words; focus goes to the first field.
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByText('The email must be an email address, like name@example.com.')).toBeVisible();
  await page.keyboard.type(E2E_ADMIN.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('not-the-password');
  await page.keyboard.press('Enter');
  const refusal = page.getByRole('alert').filter({ hasText: 'Could not sign in' });
  await expect(refusal).toBeFocused();

  await signInByKeyboard(page, '/admin/chats');
  await expect(page.getByRole('heading', { name: 'Chats', level: 1 })).toBeFocused();
  // Page changes move focus to the new page's heading.
  await tabTo(page, page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Routing rules' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Routing rules', level: 1 })).toBeFocused();
});

test('add and delete a routing rule by keyboard, with focus on each result', async ({ page }) => {
  const name = `Kbd ${uniqueSuffix()}`;
  await signInByKeyboard(page, '/admin/routing');
  await makeTeam(page);
  await tabTo(page, page.getByRole('button', { name: 'New rule' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'New routing rule' });
  await expect(form.getByLabel('Name')).toBeFocused();

  // An empty rule is refused in the page: focus goes to the first field named in the errors.
  await tabTo(page, form.getByRole('button', { name: 'Create rule' }));
  await page.keyboard.press('Enter');
  await expect(form.getByLabel('Name')).toBeFocused();
  await expect(form.getByText('Enter the name.')).toBeVisible();
  await expect(form.getByText('Choose the team.')).toBeVisible();

  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Send to team')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(form.getByLabel('Send to team')).not.toHaveValue('');
  await tabTo(page, form.getByRole('button', { name: 'Create rule' }));
  await page.keyboard.press('Enter');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('button', { name: `Edit ${name}` })).toBeFocused();

  await page.keyboard.press('Tab');
  await expect(row.getByRole('button', { name: `Delete ${name}` })).toBeFocused();
  await page.keyboard.press('Enter');
  // The confirmation is a modal dialog: it takes focus, keeps Tab inside, and Escape backs out.
  const dialog = page.getByRole('dialog', { name: `Delete rule ${name}?` });
  await expect(dialog.getByRole('button', { name: /Confirm delete/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: /Confirm delete/ })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: `Delete ${name}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: /Confirm delete/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Routing rules', level: 1 })).toBeFocused();
});

test('register a Virtual Agent, store its credentials, send a test event and rotate its key by keyboard', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    const name = `Kbd bot ${uniqueSuffix()}`;
    await signInByKeyboard(page, '/admin/virtual-agents/new');
    await makeTeam(page);
    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await tabTo(page, form.getByRole('button', { name: 'Register Virtual Agent' }));
    await page.keyboard.press('Enter');
    await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
    await expect(form.getByText('Enter the name.')).toBeVisible();

    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Team', { exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Description')).toBeFocused();
    await page.keyboard.type('Registered by keyboard');
    // The delivery mode: one stop for the radio group, on the checked choice (webhook, the default).
    await page.keyboard.press('Tab');
    await expect(form.getByRole('radio', { name: /^Webhook/ })).toBeFocused();
    await expect(form.getByRole('radio', { name: /^Webhook/ })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Webhook URL')).toBeFocused();
    await page.keyboard.type(receiver.url);
    await tabTo(page, form.getByRole('button', { name: 'Register Virtual Agent' }));
    await page.keyboard.press('Enter');

    // The credentials, shown once, take focus on the new page.
    await expect(page).toHaveURL(/\/admin\/virtual-agents\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Virtual Agent registered: its credentials' })).toBeFocused();
    await tabTo(page, page.getByRole('button', { name: 'I have stored them' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Actions' })).toBeFocused();

    await tabTo(page, page.getByRole('button', { name: 'Send test event' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('test-event-result')).toBeFocused();
    await expect(page.getByTestId('test-event-result')).toContainText('Delivered');

    await tabTo(page, page.getByRole('button', { name: 'Rotate API key…' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rotate API key?' });
    await expect(dialog.getByRole('button', { name: 'Rotate API key now' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Rotate API key…' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: 'Rotate API key now' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'New credential issued' })).toBeFocused();
    await expect(page.getByTestId('secret-reveal').getByRole('textbox', { name: 'API key' })).toHaveValue(/^vak_/);
  } finally {
    await receiver.close();
  }
});

test('redeliver a failed event by keyboard: focus stays on the button while it works', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    receiver.replies.push(500, 500, 500, 500);
    await signInByKeyboard(page, '/admin/chats');
    const { asset, va } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: { channel: 'livechat', asset_id: asset.id, customer: { destination_id: 'kbd', name: 'Kim Keys' }, assignee: va.login_id },
    });
    const chat = (await created.json()).response;
    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    const redeliver = assigned.getByRole('button', { name: /Redeliver|Delivering/ });
    await tabTo(page, redeliver);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'queued for delivery again' })).toBeVisible();
    await expect(assigned).toHaveAttribute('data-status', 'delivered', { timeout: 15_000 });
    await expect(redeliver).toBeFocused();
  } finally {
    await receiver.close();
  }
});

test('Users tabs follow the arrow keys, and Escape closes the phone menu', async ({ page }) => {
  await signInByKeyboard(page, '/admin/users');
  await tabTo(page, page.getByRole('tab', { name: 'Agents', exact: true }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Managers' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Managers' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Agents', exact: true })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Managers' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByRole('tab', { name: 'Agents', exact: true })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Add agent' })).toBeVisible();

  await page.setViewportSize(PHONE);
  const menu = page.getByRole('button', { name: 'Menu' });
  await tabTo(page, menu, { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeHidden();
  await expect(menu).toBeFocused();
});

test('a switch toggled by keyboard keeps focus while it saves and after', async ({ page }) => {
  const name = `Kbd switch ${uniqueSuffix()}`;
  await signInByKeyboard(page, '/admin/teams');
  const res = await page.request.post('/api/admin/teams', { data: { name, auto_assign: false } });
  expect(res.status()).toBe(201);
  await page.reload();
  const toggle = page.getByRole('switch', { name: `Auto-assign chats in ${name}` });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await tabTo(page, toggle, { max: 200 });
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(toggle).toBeFocused();
});
