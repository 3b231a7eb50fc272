import { expect, test } from '../servers';
import { startReceiver } from '../support';
import { screens, setUpBot, signIn, uniqueSuffix } from './helpers';

test('channel assets are created and renamed on their own page', async ({ page }) => {
  await signIn(page, '/admin/assets');
  await expect(page.getByRole('heading', { name: 'Channel assets', level: 1 })).toBeVisible();
  const name = `Support line ${uniqueSuffix()}`;
  const form = page.getByRole('form', { name: 'New asset' });
  await form.getByLabel('Channel').selectOption('sms');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Address').fill('+15551230000');
  await form.getByRole('button', { name: 'Create asset' }).click();
  const created = page.getByRole('status').filter({ hasText: `Asset ${name} created` });
  await expect(created).toBeVisible();
  const id = (await created.textContent())?.match(/ID (\d+)/)?.[1];
  // By its form, not by the input's value, which changes as it is edited.
  const row = page.getByTestId('asset-row').filter({ has: page.getByRole('form', { name: `Asset ${id}` }) });
  await expect(row).toContainText('sms');
  await row.getByLabel('Name').fill(`${name} (EU)`);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'saved' })).toBeVisible();
  await page.reload();
  await expect(page.locator(`input[value="${name} (EU)"]`)).toBeVisible();
  await screens(page, 'assets', page.getByRole('heading', { name: 'Channel assets', level: 1 }));

  // The empty name is refused in the form, in words, before any request.
  await form.getByRole('button', { name: 'Create asset' }).click();
  await expect(form.getByText('Enter the asset name.')).toBeVisible();

  // Found by part of its name, in any case; then retired: disabled, not deleted.
  const find = page.getByRole('search', { name: 'Find assets' });
  await find.getByLabel('Name or address').fill(name.toUpperCase());
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('heading', { name: /^Matching assets \(1\)/ })).toBeVisible();
  await expect(page.getByTestId('asset-row')).toHaveCount(1);
  await row.getByRole('button', { name: `Disable asset ${id}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Asset ${name} (EU) disabled: no new chats on it.` })).toBeVisible();
  await expect(row).toHaveAttribute('data-enabled', 'false');
  await expect(row).toContainText('Disabled since');

  // A bot's new chat on it is refused, naming the field.
  const { va } = await setUpBot(page.request, 'http://127.0.0.1:9/unused');
  const token = (await (await page.request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
  const refused = await page.request.post('/api/v1/chats', {
    headers: { access_token: token },
    data: { channel: 'sms', asset_id: Number(id), customer: { destination_id: '+15550009' } },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ status_code: 2035, response: { errors: [{ field: 'asset_id' }] } });

  // Only enabled assets: it is gone from the list; only disabled ones: it is there.
  await find.getByLabel('State').selectOption('true');
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText('No asset matches.')).toBeVisible();
  await find.getByLabel('State').selectOption('false');
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(row).toBeVisible();
  await screens(page, 'assets-disabled', row);
  await row.getByRole('button', { name: `Enable asset ${id}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'enabled: it takes new chats again' })).toBeVisible();
});

test('redelivering to a VA that handed the chat over asks first, then sends the event', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    receiver.replies.push(500, 500, 500, 500);
    await signIn(page, '/admin/chats');
    const { asset, va, team } = await setUpBot(page.request, receiver.url);
    const other = (await (await page.request.post('/api/admin/teams', { data: { name: `Desk ${uniqueSuffix()}` } })).json()).response;
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: { channel: 'livechat', asset_id: asset.id, customer: { destination_id: 'hand', name: 'Hana Over' }, assignee: va.login_id },
    });
    const chat = (await created.json()).response;
    expect(chat.team_id).toBe(team.id);
    await page.goto(`/admin/chats/${chat.chat_id}`);
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed');
    const transactionId = await assigned.getAttribute('data-transaction-id');

    const moved = await request.patch(`/api/v1/internal/chats/${chat.chat_id}`, {
      headers: { access_token: token },
      data: { transfer: { teamid: other.id } },
    });
    expect(moved.status()).toBe(202);
    const refused = await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers: { access_token: token },
      data: { type: 'outbound', text: 'still here?' },
    });
    expect((await refused.json()).status_code).toBe(2043);

    await page.reload();
    await expect(page.getByRole('list', { name: 'Transcript' })).toContainText(`Transferred to ${other.name} by ${va.login_id}.`);
    await assigned.getByRole('button', { name: /Redeliver/ }).click();
    const confirm = assigned.getByRole('button', { name: 'Redeliver anyway' });
    await expect(confirm).toBeFocused();
    await expect(assigned).toContainText(`no longer assigned to ${va.login_id}`);
    await screens(page, 'chat-redeliver-confirm', confirm);
    expect(receiver.received).toHaveLength(0);
    await confirm.click();
    // Each step on its own, so a failure says which one: the request, the delivery, the page.
    await expect(page.getByRole('status').filter({ hasText: 'queued for delivery again' })).toBeVisible();
    const [delivered] = await receiver.waitFor(1);
    expect(delivered.headers['webhook-id']).toBe(transactionId);
    expect(delivered.body.event_type).toBe('chat.assigned');
    await expect(assigned).toHaveAttribute('data-status', 'delivered');
    // The VA is not subscribed to chat.unassigned: the one event it received is the redelivery.
    expect(receiver.received).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});

test("a livechat asset's widget settings say where the widget's address comes from", async ({ page, baseURL }) => {
  await signIn(page, '/admin/assets');
  const name = `Shop chat ${uniqueSuffix()}`;
  const form = page.getByRole('form', { name: 'New asset' });
  await form.getByLabel('Channel').selectOption('livechat');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Create asset' }).click();
  const created = page.getByRole('status').filter({ hasText: `Asset ${name} created` });
  await expect(created).toBeVisible();
  const id = (await created.textContent())?.match(/ID (\d+)/)?.[1];
  const row = page.getByTestId('asset-row').filter({ has: page.getByRole('form', { name: `Asset ${id}` }) });
  await row.getByText('Chat widget: embed code and allowed websites').click();
  // The field the guide (docs/guide/widget.md) and the widget's console warning name.
  await expect(row.getByRole('textbox', { name: 'Allowed websites' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Save websites' })).toBeVisible();
  // The test server runs without PUBLIC_URL: the addresses are the one this page was opened at.
  const origin = row.getByTestId('widget-origin');
  await expect(origin).toContainText('PUBLIC_URL is not set');
  await expect(origin).toContainText(baseURL!);
  await expect(row.getByTestId('widget-url')).toHaveText(`${baseURL}/chat/${id}`);
});
