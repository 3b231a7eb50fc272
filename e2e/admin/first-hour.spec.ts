import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { setUpBot, signIn, uniqueSuffix } from './helpers';

// What a newcomer met in the console in their first hour (issue "The first hour").

test('Virtual Agents have their own navigation entry and page; the old addresses lead there', async ({ page }) => {
  await signIn(page, '/admin/users');
  await expect(page.getByRole('tab', { name: 'Virtual Agents' })).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Virtual Agents' }).click();
  await expect(page).toHaveURL(/\/admin\/virtual-agents$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Virtual Agents' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Virtual Agents' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('link', { name: 'Add Virtual Agent' })).toBeVisible();
  await page.goto('/admin/users?tab=virtual-agents');
  await expect(page).toHaveURL(/\/admin\/virtual-agents$/);
});

test('registration subscribes to chat.unassigned by default; the settings form shows the VA team; the recovery box uses the console date format', async ({
  page,
}) => {
  await signIn(page, '/admin/virtual-agents/new');
  const form = page.getByRole('form', { name: 'Add Virtual Agent' });
  for (const event of ['chat.assigned', 'message.received', 'chat.unassigned']) {
    await expect(form.getByRole('checkbox', { name: event })).toBeChecked();
  }
  await expect(form.getByRole('checkbox', { name: 'chat.closed' })).not.toBeChecked();

  const { team, va } = await setUpBot(page.request, 'http://127.0.0.1:9/hook');
  await page.goto(`/admin/virtual-agents/${va.id}`);
  const settings = page.getByRole('form', { name: 'Virtual Agent settings' });
  const teamSelect = settings.getByLabel('Team', { exact: true });
  await expect(teamSelect).toHaveValue(String(team.id));
  await expect(teamSelect.locator('option:checked')).toHaveText(team.name);

  // The box is pre-filled the way the page writes dates (27 Nov 2026, 07:40:00) and reads it back.
  const since = page.getByLabel('Recover failed events since');
  await expect(since).toHaveValue(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/);
  await since.fill('yesterday-ish');
  await page.getByRole('button', { name: 'Recover failed events' }).click();
  await expect(page.getByText('Write a date and time such as 27 Nov 2026, 07:40.')).toBeVisible();
  await expect(since).toHaveAttribute('aria-invalid', 'true');
  await since.fill('1 Jan 2026, 00:00');
  await page.getByRole('button', { name: 'Recover failed events' }).click();
  await expect(page.getByText(/Recovery started: \d+ failed events to send again\./)).toBeVisible();
  await expect(page.getByText('Write a date and time such as 27 Nov 2026, 07:40.')).toHaveCount(0);
});

test('"Start a test chat" on a VA page opens a chat routed to the VA, which receives chat.assigned; the chat list links the customer name', async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, '/admin/chats');
    const { va } = await setUpBot(page.request, receiver.url);
    await page.goto(`/admin/virtual-agents/${va.id}`);
    await page.getByRole('button', { name: 'Start a test chat' }).click();
    await expect(page).toHaveURL(/\/admin\/chats\/[0-9a-f-]+$/);
    const chatId = page.url().split('/').pop() as string;
    await expect(page.getByRole('heading', { name: 'Chat with Test customer' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Transcript' })).toContainText('this is a test chat started from the admin console');
    await expect
      .poll(() => receiver.received.some((r) => r.body.event_type === 'chat.assigned' && r.body.chat_id === chatId), { timeout: 15_000 })
      .toBe(true);

    // In the chat list, the customer's name leads to the chat as the ID does.
    await page.goto('/admin/chats');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Chat ${chatId}` }) });
    await row.getByRole('link', { name: 'Test customer' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/chats/${chatId}$`));
  } finally {
    await receiver.close();
  }
});

test('the Deliveries page counts events waiting for a retry apart from events failed for good, and paints only the latter red', async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    // The first attempt is answered 429 with a long Retry-After: the event waits for its retry, nothing fails.
    receiver.replies.push({ status: 429, headers: { 'Retry-After': '600' } });
    await signIn(page, '/admin/deliveries');
    const { va } = await setUpBot(page.request, receiver.url);
    const started = await page.request.post(`/api/admin/virtual-agents/${va.id}/test-chats`, { data: { text: `Hi ${uniqueSuffix()}` } });
    expect(started.status()).toBe(201);
    await expect.poll(() => receiver.refused(), { timeout: 15_000 }).toBe(1);

    const stats = async () => (await (await page.request.get('/api/admin/deliveries/stats?window=1h')).json()).response;
    await expect.poll(async () => (await stats()).backlog.retrying, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.reload();
    const waiting = page.locator('.stat').filter({ hasText: 'Events waiting for a retry' });
    const failed = page.locator('.stat').filter({ hasText: 'Failed for good' });
    await expect(waiting).toBeVisible();
    // The page shows the admin API's counts (read again after the page drew them, since other tests share the account).
    const s = await stats();
    await expect(waiting.locator('.stat-value')).toHaveText(/^\d+$/);
    expect(Number(await waiting.locator('.stat-value').textContent())).toBeGreaterThan(0);
    await expect(failed).toHaveClass(s.totals.failed ? /stat-bad/ : /stat-ok/);
    if (s.totals.failed === 0) await expect(page.getByTestId('retries-note')).toBeVisible();
    else await expect(page.getByTestId('retries-note')).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
