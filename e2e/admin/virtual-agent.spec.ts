import { Webhook } from 'standardwebhooks';
import { expect, test } from '../fixtures';
import { startReceiver } from '../support';
import { screens, setUpBot, signIn, uniqueSuffix } from './helpers';

test('registers a Virtual Agent: fixed name and description, credentials shown once, a test event received', async ({ page }) => {
  const receiver = await startReceiver();
  const suffix = uniqueSuffix();
  const teamName = `Bots ${suffix}`;
  const vaName = `Helper ${suffix}`;
  try {
    await signIn(page, '/admin/teams');

    // A team with a skill, through the Teams & skills page.
    const newTeam = page.getByRole('form', { name: 'New team' });
    await newTeam.getByLabel('Name').fill(teamName);
    await newTeam.getByLabel('Skills').fill('billing, sales');
    await newTeam.getByRole('button', { name: 'Create team' }).click();
    await expect(page.getByRole('heading', { name: teamName })).toBeVisible();

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Virtual Agents' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Virtual Agents' })).toBeVisible();
    await page.getByRole('link', { name: 'Add Virtual Agent' }).click();
    await expect(page.getByRole('heading', { name: 'Add Virtual Agent' })).toBeVisible();

    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    await expect(form.getByText('Check the fields marked below.')).toBeVisible();

    await form.getByLabel('Name', { exact: true }).fill(vaName);
    await form.getByLabel('Description').fill('Answers billing questions first');
    await form.getByLabel('Webhook URL').fill('not a url');
    await form.getByLabel('Webhook URL').blur();
    await expect(form.getByText('Not an absolute URL')).toBeVisible();
    await form.getByLabel('Webhook URL').fill(receiver.url);
    await expect(form.getByText('Not an absolute URL')).toHaveCount(0);

    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header name 1', { exact: true }).fill('Webhook-Signature');
    await form.getByLabel('Header value 1', { exact: true }).fill('forged');
    await expect(form.getByText('Reserved: Webhook-Signature is set by the service')).toBeVisible();
    await form.getByLabel('Header name 1', { exact: true }).fill('X-Bot-Secret');
    await form.getByLabel('Header value 1', { exact: true }).fill('static-value');

    await form.getByRole('checkbox', { name: 'chat.closed' }).check();
    await form.getByLabel('Team', { exact: true }).selectOption({ label: teamName });
    await form.getByRole('checkbox', { name: 'billing' }).check();
    await form.getByRole('button', { name: 'Add attribute' }).click();
    await form.getByLabel('Attribute 1', { exact: true }).fill('tier');
    await form.getByLabel('Value 1', { exact: true }).fill('gold');
    await screens(page, 'va-new', form.getByLabel('Attribute 1', { exact: true }));

    // The e2e server allows private addresses; a production server's refusal (3007) is shown like this.
    const reason = '10.0.0.5 is a private, loopback, link-local or reserved address';
    await page.route('**/api/admin/virtual-agents', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            json: {
              status_code: 3007,
              description: `Webhook URL refused: ${reason}`,
              response: { errors: [{ field: 'webhook_url', message: reason }] },
            },
          })
        : route.fallback(),
    );
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();
    const refusal = form.getByRole('alert').filter({ hasText: 'The service refused this webhook URL' });
    await expect(refusal).toContainText(reason);
    await expect(refusal).toContainText('server-side request forgery');
    await screens(page, 'va-new-refused', refusal);
    await page.unrouteAll();

    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();

    // The VA's page shows the credentials once.
    await expect(page).toHaveURL(/\/admin\/virtual-agents\/\d+$/);
    const reveal = page.getByTestId('secret-reveal');
    await expect(reveal).toContainText('you will not see them again');
    const apiKey = await reveal.getByRole('textbox', { name: 'API key' }).inputValue();
    const secret = await reveal.getByRole('textbox', { name: 'Webhook signing secret' }).inputValue();
    expect(apiKey).toMatch(/^vak_/);
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByRole('button', { name: 'Copy API key' })).toBeVisible();

    // Name and description are read-only once saved.
    const settings = page.getByRole('form', { name: 'Virtual Agent settings' });
    const nameInput = settings.getByLabel('Name', { exact: true });
    await expect(nameInput).toHaveValue(vaName);
    await expect(nameInput).toHaveAttribute('readonly', '');
    await expect(settings.getByLabel('Description')).toHaveAttribute('readonly', '');
    await nameInput.press('End');
    await nameInput.pressSequentially(' changed');
    await expect(nameInput).toHaveValue(vaName);
    // The API refuses the change too, whatever sends it.
    const vaId = page.url().split('/').pop();
    const refused = await page.request.patch(`/api/admin/virtual-agents/${vaId}`, { data: { description: 'Something else' } });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).status_code).toBe(3005);
    await screens(page, 'va-detail-with-secrets', page.getByTestId('secret-reveal'));

    // A test event: a real signed delivery to the receiver.
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByTestId('test-event-result');
    await expect(result).toContainText('Delivered: the webhook answered HTTP 200.');
    const [hit] = await receiver.waitFor(1);
    expect(hit.body).toMatchObject({ event_type: 'chat.assigned', test: true });
    expect(hit.headers['x-bot-secret']).toBe('static-value');
    expect(() => new Webhook(secret).verify(hit.raw, hit.headers as Record<string, string>)).not.toThrow();
    await expect(result).toContainText(hit.body.transaction_id);

    // Once dismissed or reloaded, the credentials are gone for good.
    await page.reload();
    await expect(page.getByRole('heading', { name: vaName })).toBeVisible();
    await expect(page.getByTestId('secret-reveal')).toHaveCount(0);
    expect(await page.content()).not.toContain(apiKey);

    // Rotating the signing secret shows the new one once; deliveries then verify with it.
    await page.getByRole('button', { name: 'Rotate signing secret…' }).click();
    await page.getByRole('button', { name: 'Rotate signing secret now' }).click();
    const rotated = await page.getByTestId('secret-reveal').getByRole('textbox', { name: 'Webhook signing secret' }).inputValue();
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored them' }).click();
    await expect(page.getByTestId('secret-reveal')).toHaveCount(0);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [, second] = await receiver.waitFor(2);
    expect(() => new Webhook(rotated).verify(second.raw, second.headers as Record<string, string>)).not.toThrow();

    // Disable, then enable again.
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByRole('heading', { name: vaName })).toContainText('disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('heading', { name: vaName })).toContainText('enabled');
    await screens(page, 'va-detail', page.getByRole('heading', { name: vaName }));

    // The list shows the VA with its delivery health.
    await page.goto('/admin/virtual-agents');
    const row = page.getByRole('row').filter({ hasText: vaName });
    await expect(row).toContainText(teamName);
    await expect(row).toContainText('no deliveries');
    await screens(page, 'users-virtual-agents', row);
  } finally {
    await receiver.close();
  }
});

test('Retry now sends the events of a VA whose webhook answers again, without waiting for their retry time', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    // The first attempt is told to come back in 10 minutes (Retry-After, the longest the service
    // honours): nothing but "Retry now" can send the events within this test.
    receiver.replies.push({ status: 503, headers: { 'retry-after': '600' } });
    await signIn(page, '/admin/chats');
    const { asset, va } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: { channel: 'livechat', asset_id: asset.id, customer: { destination_id: 'retry', name: 'Rita Try' }, assignee: va.login_id },
    });
    expect(created.status()).toBe(201);
    const chatId = (await created.json()).response.chat_id;
    await expect.poll(() => receiver.refused()).toBe(1);
    // A customer writes meanwhile: its event waits behind the first one.
    const appended = await request.post(`/api/v1/chats/${chatId}/messages`, {
      headers: { access_token: token },
      data: { type: 'inbound', text: 'anyone there?' },
    });
    expect(appended.status()).toBe(201);
    await page.goto(`/admin/chats/${chatId}`);
    await expect(page.locator('[data-testid="event"][data-event-type="chat.assigned"]')).toHaveAttribute('data-status', 'pending');
    expect(receiver.received).toHaveLength(0);

    await page.goto(`/admin/virtual-agents/${va.id}`);
    await page.getByRole('button', { name: 'Retry now' }).click();
    await expect(page.getByRole('status').filter({ hasText: new RegExp(`waiting events? of ${va.name} due now`) })).toBeVisible();
    const received = await receiver.waitFor(2);
    expect(received.map((r) => r.body.event_type)).toEqual(['chat.assigned', 'message.received']);
    expect(received.every((r) => r.body.chat_id === chatId)).toBe(true);
    expect(receiver.refused()).toBe(1);

    await page.goto(`/admin/chats/${chatId}`);
    await expect(page.locator('[data-testid="event"][data-status="delivered"]')).toHaveCount(2);
  } finally {
    await receiver.close();
  }
});

test('registers a pull VA without a webhook URL; its page shows the mode and where the bot stands; webhook mode needs the URL back', async ({
  page,
  request,
}) => {
  const receiver = await startReceiver();
  const suffix = uniqueSuffix();
  const vaName = `Puller ${suffix}`;
  try {
    await signIn(page, '/admin/virtual-agents/new');
    const team = (await (await page.request.post('/api/admin/teams', { data: { name: `Pull team ${suffix}`, auto_assign: false } })).json())
      .response;
    const asset = (await (await page.request.post('/api/admin/assets', { data: { channel: 'api', name: `Pull API ${suffix}` } })).json())
      .response;
    await page.reload();

    const form = page.getByRole('form', { name: 'Add Virtual Agent' });
    await form.getByLabel('Name', { exact: true }).fill(vaName);
    await form.getByLabel('Description').fill('Reads its events from a laptop');
    // Pull chosen with the keyboard: the radio group moves with the arrow keys.
    const webhookRadio = form.getByRole('radio', { name: /^Webhook/ });
    await expect(webhookRadio).toBeChecked();
    await webhookRadio.focus();
    await page.keyboard.press('ArrowDown');
    await expect(form.getByRole('radio', { name: /^Pull/ })).toBeChecked();
    await expect(form.getByRole('radio', { name: /^Pull/ })).toBeFocused();
    const url = form.getByLabel('Webhook URL (optional in pull mode)');
    await expect(url).toHaveValue('');
    await expect(url).not.toHaveAttribute('aria-required', 'true');
    await expect(form.getByText('Not needed in pull mode: nothing is POSTed.')).toBeVisible();
    await form.getByLabel('Team', { exact: true }).selectOption({ label: team.name });
    await screens(page, 'va-new-pull', form.getByRole('radio', { name: /^Pull/ }));
    await form.getByRole('button', { name: 'Register Virtual Agent' }).click();

    await expect(page).toHaveURL(/\/admin\/virtual-agents\/\d+$/);
    const apiKey = await page.getByTestId('secret-reveal').getByRole('textbox', { name: 'API key' }).inputValue();
    await page.getByRole('button', { name: 'I have stored them' }).click();
    const card = page.getByRole('region', { name: 'Event delivery' });
    await expect(card).toContainText('Pull: the bot reads GET /api/v1/events');
    await expect(card.getByRole('definition').nth(1)).toHaveText('Never');
    await expect(card).toContainText('Nothing yet');
    const vaId = Number(page.url().split('/').pop());
    const saved = (await (await page.request.get(`/api/admin/virtual-agents/${vaId}`)).json()).response;
    expect(saved).toMatchObject({ delivery_mode: 'pull', webhook_url: null });

    // The bot reads and acknowledges from outside; the page then shows when.
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: apiKey } })).json()).response.access_token;
    const created = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: {
        channel: 'api',
        asset_id: asset.id,
        customer: { destination_id: `pull-${suffix}`, name: 'Pat Pull' },
        assignee: saved.login_id,
      },
    });
    expect(created.status()).toBe(201);
    const read = (await (await request.get('/api/v1/events', { headers: { access_token: token } })).json()).response;
    expect(read.events).toHaveLength(1);
    const ack = await request.post('/api/v1/events/ack', { headers: { access_token: token }, data: { cursor: read.next_cursor } });
    expect(ack.status()).toBe(200);
    await page.reload();
    await expect(card.getByRole('definition').nth(1)).not.toHaveText('Never');
    await expect(card).toContainText(read.next_cursor);
    await expect(card).not.toContainText('Nothing yet');
    await screens(page, 'va-detail-pull', card);

    // Back to webhook mode: the URL is required again, then saved with it.
    const settings = page.getByRole('form', { name: 'Virtual Agent settings' });
    await settings.getByRole('radio', { name: /^Webhook/ }).check();
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect(settings.getByText('Enter the webhook URL, starting with https://')).toBeVisible();
    await settings.getByLabel('Webhook URL').fill(receiver.url);
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Changes saved.' })).toBeVisible();
    await expect(card).toContainText(`Webhook: POSTed to ${receiver.url}`);
    expect((await (await page.request.get(`/api/admin/virtual-agents/${vaId}`)).json()).response.delivery_mode).toBe('webhook');
  } finally {
    await receiver.close();
  }
});
