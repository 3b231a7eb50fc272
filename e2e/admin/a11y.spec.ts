import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { DESKTOP, expectAccessible, PHONE } from './axe';
import { setUpBot, signIn } from './helpers';

test('every console page and the states a user reaches pass axe (WCAG 2.1 A/AA) at laptop and phone widths', async ({ page, request }) => {
  test.setTimeout(900_000);
  const receiver = await startReceiver();
  try {
    const both = async (state: string, ready: () => Promise<void>) => {
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        await ready();
        await expectAccessible(page, state, test.info(), true);
      }
      await page.setViewportSize(DESKTOP);
    };
    const heading = (name: string) => () => expect(page.getByRole('heading', { name, exact: true, level: 1 })).toBeVisible();

    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/login');
    await both('sign-in', () => expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await both('sign-in with field errors', () =>
      expect(page.getByText('The email must be an email address, like name@example.com.')).toBeVisible(),
    );
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await both('sign-in refused', () => expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toBeVisible());

    await signIn(page, '/admin/chats');
    receiver.replies.push(500, 500, 500, 500);
    const { asset, va, team } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: 'visitor-a11y', name: 'Ada Access' },
        assignee: va.login_id,
        messages: [{ type: 'inbound', text: 'Hello', attachment: { type: 'image', url: 'https://files.example/a.png' } }],
      },
    });
    const chat = (await created.json()).response;

    await page.goto('/admin/chats');
    await both('chats', () => expect(page.getByRole('link', { name: `Chat ${chat.chat_id}` })).toBeVisible());
    await page.getByLabel('Search', { exact: true }).fill('no-such-chat-anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await both('chats, nothing matches', () => expect(page.getByText('No chats match.')).toBeVisible());

    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await assigned.getByText('Event body').click();
    await both('chat detail', () => expect(page.getByRole('heading', { name: 'Chat with Ada Access' })).toBeVisible());
    await page.getByRole('button', { name: 'Send as customer' }).click();
    await both('chat detail, empty message refused', () =>
      expect(page.getByText('Write the text, or give an attachment URL.')).toBeVisible(),
    );

    await page.goto('/admin/deliveries');
    await both('deliveries', () => expect(page.getByRole('figure', { name: 'Deliveries per minute' })).toBeVisible());

    const ruleName = `A11y rule ${team.id}`;
    const rule = await page.request.post('/api/admin/routing-rules', {
      data: { name: ruleName, team_id: team.id, conditions: [], enabled: false },
    });
    expect(rule.status()).toBe(201);
    await page.goto('/admin/routing');
    await both('routing', () => expect(page.getByRole('row').filter({ hasText: ruleName })).toBeVisible());
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await both('routing new rule refused', () =>
      expect(page.getByRole('form', { name: 'New routing rule' }).getByText('Enter the name.')).toBeVisible(),
    );
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: ruleName })
      .getByRole('button', { name: `Delete ${ruleName}` })
      .click();
    await both('routing delete confirmation', () => expect(page.getByRole('dialog', { name: `Delete rule ${ruleName}?` })).toBeVisible());
    await page.keyboard.press('Escape');

    await page.goto('/admin/teams');
    await both('teams', heading('Teams & skills'));
    const card = page.getByRole('region', { name: team.name });
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await both('teams, empty skill refused', () => expect(card.getByText('Enter the skill name.')).toBeVisible());

    for (const tab of ['agents', 'managers']) {
      await page.goto(`/admin/users?tab=${tab}`);
      await both(`users ${tab}`, () => expect(page.getByRole('tab', { selected: true })).toBeVisible());
    }
    await page.goto('/admin/virtual-agents');
    await both('virtual agents', heading('Virtual Agents'));
    await page.goto('/admin/users?tab=agents');
    await page.getByRole('button', { name: 'Add agent' }).click();
    await page.getByRole('form', { name: 'Add agent' }).getByRole('button', { name: 'Add agent' }).click();
    await both('add agent refused', () =>
      expect(page.getByRole('form', { name: 'Add agent' }).locator('.field-error').first()).toBeVisible(),
    );

    await page.goto('/admin/virtual-agents/new');
    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await both('add VA refused', () => expect(form.getByText('Enter the name.')).toBeVisible());
    await form.getByLabel('Name', { exact: true }).fill(`A11y bot ${team.id}`);
    await form.getByLabel('Team', { exact: true }).selectOption({ label: team.name });
    await form.getByLabel('Description').fill('Checked by axe');
    await form.getByLabel('Webhook URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await both('credentials box after registering', () =>
      expect(page.getByRole('heading', { name: 'Virtual Agent registered: its credentials' })).toBeVisible(),
    );

    await page.goto(`/admin/virtual-agents/${va.id}`);
    await both('VA detail', () => expect(page.getByRole('heading', { name: va.name, level: 1 })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key…' }).click();
    await both('rotate confirmation', () => expect(page.getByRole('dialog', { name: 'Rotate API key?' })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key now' }).click();
    await both('credentials box after rotating', () => expect(page.getByTestId('secret-reveal')).toBeVisible());

    await page.goto('/admin/audit');
    await both('audit log', () => expect(page.getByRole('region', { name: 'Audit entries' })).toBeVisible());
    await page.getByLabel('Administrator').fill('x'.repeat(400));
    await page.getByRole('button', { name: 'Filter' }).click();
    await both('audit filter refused', () => expect(page.getByText(/The administrator can be at most 320 characters/)).toBeVisible());

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
    await expectAccessible(page, 'phone menu open', test.info(), true);
  } finally {
    receiver.server.close();
  }
});

// /docs (the guide and both references) has its own axe walk at both widths: e2e/admin/docs.spec.ts.
