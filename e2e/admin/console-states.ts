import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { startReceiver } from '../support';
import { PHONE } from './axe';
import { setUpBot, signIn } from './helpers';

/**
 * Checks one state of a page: `ready` resolves once the state shows (call it again after each
 * change of viewport). `phoneOnly`: the state exists at phone width only (the open menu).
 */
export type CheckState = (state: string, ready: () => Promise<void>, options?: { phoneOnly?: boolean }) => Promise<void>;

/**
 * Every console page and the states a user reaches in it (refusals, confirmations, credentials
 * shown once), walked in one order with data that stresses the layout (long names, identifiers and
 * file names). console-walk.spec.ts checks each state once at every width (axe, reflow, target
 * sizes, screenshots), so a state added here is checked every way. Leaves the viewport as `check`
 * left it.
 */
export async function walkConsoleStates(page: Page, request: APIRequestContext, check: CheckState): Promise<void> {
  const receiver = await startReceiver();
  let ruleId: number | undefined;
  try {
    const heading = (name: string) => () => expect(page.getByRole('heading', { name, exact: true, level: 1 })).toBeVisible();

    await page.goto('/admin/login');
    await check('sign-in', () => expect(page.getByRole('heading', { name: 'Sign in', level: 2 })).toBeVisible());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await check('sign-in-field-errors', () =>
      expect(page.getByText('The email must be an email address, like name@example.com.')).toBeVisible(),
    );
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await check('sign-in-refused', () => expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toBeVisible());

    const viewport = page.viewportSize();
    await signIn(page, '/admin/chats');
    if (viewport) await page.setViewportSize(viewport);
    receiver.replies.push(500, 500, 500, 500);
    const { asset, va, team } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: {
          destination_id: `visitor-walk-${team.id}-with-a-rather-long-identifier@example.test`,
          name: 'Philippa Phone-Wellington',
        },
        assignee: va.login_id,
        alias_id: `CRM-WALK-${team.id}-0000000000000000000000001`,
        messages: [
          { type: 'inbound', text: 'Hello, I would like to change the delivery address of order 12345678901234567890.' },
          { type: 'inbound', text: 'Here it is', attachment: { type: 'image', url: 'https://files.example/a-very-long-file-name.png' } },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const chat = (await created.json()).response;
    await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers: { access_token: token },
      data: { type: 'outbound', text: 'Of course. Which address should it go to?' },
    });

    await page.goto('/admin/chats');
    await check('chats', () => expect(page.getByRole('link', { name: `Chat ${chat.chat_id}` })).toBeVisible());
    await page.getByLabel('Search', { exact: true }).fill('no-such-chat-anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await check('chats-nothing-matches', () => expect(page.getByText('No chats match.')).toBeVisible());

    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await assigned.getByText('Event body').click();
    await check('chat-detail', () => expect(page.getByRole('heading', { name: 'Chat with Philippa Phone-Wellington' })).toBeVisible());
    await page.getByRole('button', { name: 'Send as customer' }).click();
    await check('chat-detail-empty-message-refused', () =>
      expect(page.getByText('Write the text, or give an attachment URL.')).toBeVisible(),
    );

    await page.goto('/admin/deliveries');
    await check('deliveries', () => expect(page.getByRole('figure', { name: 'Deliveries per minute' })).toBeVisible());

    // Enabled, with a condition, as a real rule shows; it routes nothing of the other tests (no
    // livechat chat of theirs goes unassigned on this account's asset), and is removed at the end.
    const ruleName = `Walk rule for a team with a long name ${team.id}`;
    const rule = await page.request.post('/api/admin/routing-rules', {
      data: { name: ruleName, team_id: team.id, conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }], enabled: true },
    });
    expect(rule.status(), await rule.text()).toBe(201);
    ruleId = (await rule.json()).response.id;
    await page.goto('/admin/routing');
    await check('routing', () => expect(page.getByRole('row').filter({ hasText: ruleName })).toBeVisible());
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await check('routing-new-rule-refused', () =>
      expect(page.getByRole('form', { name: 'New routing rule' }).getByText('Enter the name.')).toBeVisible(),
    );
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Delete ${ruleName}` }).click();
    await check('routing-delete-confirmation', () => expect(page.getByRole('dialog', { name: `Delete rule ${ruleName}?` })).toBeVisible());
    await page.keyboard.press('Escape');

    await page.goto('/admin/teams');
    await check('teams', heading('Teams & skills'));
    const card = page.getByRole('region', { name: team.name });
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await check('teams-empty-skill-refused', () => expect(card.getByText('Enter the skill name.')).toBeVisible());

    await page.goto('/admin/assets');
    await check('assets', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());

    for (const tab of ['agents', 'managers']) {
      await page.goto(`/admin/users?tab=${tab}`);
      await check(`users-${tab}`, () => expect(page.getByRole('tab', { selected: true })).toBeVisible());
    }
    await page.goto('/admin/virtual-agents');
    await check('virtual-agents', heading('Virtual Agents'));
    await page.goto('/admin/users?tab=agents');
    await page.getByRole('button', { name: 'Add agent' }).click();
    await page.getByRole('form', { name: 'Add agent' }).getByRole('button', { name: 'Add agent' }).click();
    await check('users-add-agent-refused', () =>
      expect(page.getByRole('form', { name: 'Add agent' }).locator('.field-error').first()).toBeVisible(),
    );

    await page.goto('/admin/virtual-agents/new');
    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await check('add-va-refused', () => expect(form.getByText('Enter the name.')).toBeVisible());
    await form.getByLabel('Name', { exact: true }).fill(`Walk bot with a long name ${team.id}`);
    await form.getByLabel('Team', { exact: true }).selectOption({ label: team.name });
    await form.getByLabel('Description').fill('Checked on every walk');
    await form.getByLabel('Webhook URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await check('credentials-box', () =>
      expect(page.getByRole('heading', { name: 'Virtual Agent registered: its credentials' })).toBeVisible(),
    );

    await page.goto(`/admin/virtual-agents/${va.id}`);
    // The request log is written in batches a moment after the answers.
    await expect(async () => {
      await page.reload();
      await expect(page.locator('[data-testid="bot-request"]').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await check('va-detail', () => expect(page.getByRole('heading', { name: va.name, level: 1 })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key…' }).click();
    await check('va-rotate-confirmation', () => expect(page.getByRole('dialog', { name: 'Rotate API key?' })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key now' }).click();
    await check('va-credentials-after-rotating', () => expect(page.getByTestId('secret-reveal')).toBeVisible());

    await page.goto('/admin/audit');
    await check('audit', () => expect(page.getByRole('region', { name: 'Audit entries' })).toBeVisible());
    await page.getByLabel('Administrator').fill('x'.repeat(400));
    await page.getByRole('button', { name: 'Filter' }).click();
    await check('audit-filter-refused', () => expect(page.getByText(/The administrator can be at most 320 characters/)).toBeVisible());

    // An id with one match opens what it names straight away (the chat page, walked above), so the
    // find page is walked where it stays: an id that names nothing.
    await page.goto('/admin/trace?id=nothing-of-this-walk');
    await check('trace-nothing-found', () =>
      expect(page.locator('#main').getByRole('alert')).toContainText('Nothing of this account has this id'),
    );

    await page.goto('/admin/chats');
    const before = page.viewportSize();
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    await check('menu-open', () => expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible(), { phoneOnly: true });
    if (before) await page.setViewportSize(before);
  } finally {
    if (ruleId !== undefined) await page.request.delete(`/api/admin/routing-rules/${ruleId}`).catch(() => {});
    await receiver.close();
  }
}
