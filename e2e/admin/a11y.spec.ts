import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { DESKTOP, expectAccessible, PHONE } from './axe';
import { setUpBot, signIn } from './helpers';

// Open in #16: after the merge the routing-rule form shows a different first error for an empty name,
// so this walk stops at the routing state; the pages it reaches before that pass.
test.fixme('every console page and the states a user reaches pass axe (WCAG 2.1 A/AA) at laptop and phone widths', async ({
  page,
  request,
}) => {
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
    const heading = (name: string) => () => expect(page.getByRole('heading', { name, exact: true })).toBeVisible();

    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/login');
    await both('sign-in', heading('Sign in'));
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await both('sign-in refused', () => expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toBeVisible());

    await signIn(page, '/admin/chats');
    receiver.replies.push(500, 500, 500, 500);
    const { asset, va } = await setUpBot(page.request, receiver.url);
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
    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await assigned.getByText('Event body').click();
    await both('chat detail', () => expect(page.getByRole('heading', { name: 'Chat with Ada Access' })).toBeVisible());

    await page.goto('/admin/deliveries');
    await both('deliveries', () => expect(page.getByRole('figure', { name: 'Deliveries per minute' })).toBeVisible());

    await page.goto('/admin/routing');
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await both('routing new rule refused', () =>
      expect(page.getByRole('form', { name: 'New routing rule' }).getByRole('alert').first()).toBeVisible(),
    );

    await page.goto('/admin/teams');
    await both('teams', heading('Teams & skills'));

    for (const tab of ['agents', 'managers', 'virtual-agents']) {
      await page.goto(`/admin/users?tab=${tab}`);
      await both(`users ${tab}`, () => expect(page.getByRole('tab', { selected: true })).toBeVisible());
    }
    await page.goto('/admin/users?tab=agents');
    await page.getByRole('button', { name: 'Add agent' }).click();
    await page.getByRole('form', { name: 'Add agent' }).getByRole('button', { name: 'Add agent' }).click();
    await both('add agent refused', () => expect(page.getByRole('form', { name: 'Add agent' }).getByRole('alert').first()).toBeVisible());

    await page.goto('/admin/users/virtual-agents/new');
    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await both('add VA refused', () => expect(form.getByRole('alert').first()).toBeVisible());

    await page.goto(`/admin/users/virtual-agents/${va.id}`);
    await both('VA detail', () => expect(page.getByRole('heading', { name: va.name })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key…' }).click();
    await both('rotate confirmation', () => expect(page.getByRole('button', { name: 'Rotate API key now' })).toBeVisible());
    await page.getByRole('button', { name: 'Rotate API key now' }).click();
    await both('credentials box', () => expect(page.getByTestId('secret-reveal')).toBeVisible());

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
    await expectAccessible(page, 'phone menu open', test.info(), true);
  } finally {
    receiver.server.close();
  }
});

test.fixme('the API reference at /docs passes axe (WCAG 2.1 A/AA)', async ({ page }) => {
  // Known to fail: the hand-made reference renderer has nested links in <summary> and scrolling
  // code blocks that are not focusable. It is due to be replaced by a maintained renderer; until
  // then it is skipped (fixme), and the README lists it as a known exception.
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto('/docs');
    await expect(page.locator('h1').first()).toBeVisible();
    await expectAccessible(page, 'docs');
  }
});
