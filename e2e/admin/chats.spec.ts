import { expect, test } from '../fixtures';
import { QUICK_REPLY_MESSAGE, type Received, startReceiver } from '../support';
import { screens, setUpBot, signIn } from './helpers';

/** The first delivery the receiver accepted that matches, waiting for it. */
async function receivedWhere(receiver: { received: Received[] }, match: (r: Received) => boolean): Promise<Received> {
  await expect.poll(() => receiver.received.some(match), { timeout: 15_000 }).toBe(true);
  return receiver.received.find(match)!;
}

/** An inline image: shown as text, never loaded and never a link (only http(s) URLs become links). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQj9+PFTEMLQkAz4pPQYfw+EIAAAAASUVORK5CYII=';

test('a chat created through the bot API is found, inspected, fed a customer message, and its failed event redelivered', async ({
  page,
  request,
}) => {
  const receiver = await startReceiver();
  try {
    // The first 4 attempts (the whole retry schedule of the e2e server) are refused: the event fails for good.
    receiver.replies.push(500, 500, 500, 500);
    await signIn(page, '/admin/chats');
    const { asset, va } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const headers = { access_token: token };
    const created = await request.post('/api/v1/chats', {
      headers,
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: 'visitor-e2e', name: 'Vera Visitor' },
        assignee: va.login_id,
        alias_id: `CRM-${Date.now()}`,
        messages: [{ type: 'inbound', text: 'Hello, is anyone there?' }],
      },
    });
    expect(created.status()).toBe(201);
    const chat = (await created.json()).response;
    const reply = await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers,
      data: QUICK_REPLY_MESSAGE,
    });
    expect(reply.status()).toBe(201);
    const file = { type: 'inbound', text: 'Here is my receipt', attachment: { type: 'file', url: 'https://files.example/receipt.pdf' } };
    expect((await request.post(`/api/v1/chats/${chat.chat_id}/messages`, { headers, data: file })).status()).toBe(201);
    // Only http(s) attachment URLs are accepted: a data: image never reaches an administrator's browser.
    const dataImage = { type: 'inbound', attachment: { type: 'image', url: PIXEL } };
    expect((await request.post(`/api/v1/chats/${chat.chat_id}/messages`, { headers, data: dataImage })).status()).toBe(400);

    await page.reload();
    await page.getByLabel('Search', { exact: true }).fill(chat.alias_id);
    await page.getByRole('button', { name: 'Search' }).click();
    const link = page.getByRole('link', { name: `Chat ${chat.chat_id}` });
    await expect(link).toBeVisible();
    await expect(page.getByRole('row').filter({ has: link })).toContainText('Vera Visitor');
    await screens(page, 'chats', link);
    await link.click();

    await expect(page.getByRole('heading', { name: 'Chat with Vera Visitor' })).toBeVisible();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect(transcript.locator('[data-type="inbound"]').first()).toContainText('Hello, is anyone there?');
    await expect(transcript.locator('[data-type="outbound"]')).toContainText('Billing or sales?');
    await expect(transcript.locator('.quick-reply')).toHaveText(['Billing', 'Sales']);
    await expect(transcript.getByRole('link', { name: 'file attachment: receipt.pdf' })).toHaveAttribute(
      'href',
      'https://files.example/receipt.pdf',
    );
    await expect(transcript.getByRole('img')).toHaveCount(0);
    await expect(transcript.getByRole('link', { name: /image attachment/ })).toHaveCount(0);

    // The chat.assigned event fails after four refused attempts, each shown with its status.
    const assigned = page.locator('[data-testid="event"][data-event-type="chat.assigned"]');
    await expect(assigned).toHaveAttribute('data-status', 'failed', { timeout: 15_000 });
    await expect(assigned.getByTestId('attempt')).toHaveCount(4);
    await expect(assigned.getByTestId('attempt').first()).toContainText('HTTP 500');
    await expect(assigned.getByTestId('attempt').first()).toContainText('not now');
    const transactionId = await assigned.getAttribute('data-transaction-id');
    await expect(assigned).toContainText(chat.messages[0].transid);
    await screens(page, 'chat-failed', assigned.getByTestId('attempt').first());

    // The receiver now answers 200: Redeliver sends the same event again and it is delivered.
    await assigned.getByRole('button', { name: /Redeliver/ }).click();
    await expect(assigned).toHaveAttribute('data-status', 'delivered', { timeout: 15_000 });
    await expect(assigned.getByTestId('attempt')).toHaveCount(5);
    await expect(assigned.getByTestId('attempt').last()).toContainText('HTTP 200');
    const delivered = await receivedWhere(receiver, (r) => r.body.event_type === 'chat.assigned');
    expect(delivered.body.transaction_id).toBe(transactionId);

    // A message written as the customer reaches the bot as message.received.
    await page.getByLabel('Text', { exact: true }).fill('I need a refund');
    await page.getByRole('button', { name: 'Send as customer' }).click();
    await expect(transcript.locator('[data-type="inbound"]').last()).toContainText('I need a refund');
    const received = await receivedWhere(receiver, (r) => r.body.payload?.messages?.[0]?.text === 'I need a refund');
    expect(received.body).toMatchObject({ event_type: 'message.received', chat_id: chat.chat_id });
    const latest = page.locator('[data-testid="event"][data-event-type="message.received"]').last();
    await expect(latest).toHaveAttribute('data-status', 'delivered', { timeout: 15_000 });

    // An announcement is shown apart from the conversation.
    await page.getByRole('radio', { name: /Announcement/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('VIP customer: refund without a receipt');
    await page.getByRole('button', { name: 'Add announcement' }).click();
    await expect(transcript.locator('[data-type="announcement"]')).toContainText('VIP customer');
    await screens(page, 'chat-detail', transcript.locator('[data-type="announcement"]'));
  } finally {
    await receiver.close();
  }
});

test('the deliveries page charts attempts, latency, failing VAs and the backlog over a chosen window', async ({ page }) => {
  await signIn(page, '/admin/deliveries');
  await expect(page.getByRole('heading', { name: 'Deliveries', exact: true })).toBeVisible();
  await expect(page.locator('.stat').filter({ hasText: 'Backlog (pending now)' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Deliveries per minute' })).toBeVisible();
  await screens(page, 'deliveries-1h', page.getByRole('figure', { name: 'Deliveries per minute' }));
  await page.getByRole('radio', { name: '24 hours' }).check();
  await expect(page.getByRole('heading', { name: 'Deliveries over the last 24 hours' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Deliveries per 10 minutes' })).toBeVisible();
  await page.getByRole('radio', { name: '15 min' }).check();
  await expect(page.getByRole('heading', { name: 'Deliveries over the last 15 min' })).toBeVisible();
  await screens(page, 'deliveries-15m', page.getByRole('heading', { name: 'Deliveries over the last 15 min' }));
});

test('the chat page follows the VA typing and a streamed reply live, over the admin chat stream', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, '/admin/chats');
    const { asset, va } = await setUpBot(page.request, receiver.url);
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const headers = { access_token: token };
    const created = await request.post('/api/v1/chats', {
      headers,
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: `live-${Date.now()}`, name: 'Lena Live' },
        assignee: va.login_id,
        messages: [{ type: 'inbound', text: 'What is the answer?' }],
      },
    });
    expect(created.status()).toBe(201);
    const chatId = (await created.json()).response.chat_id as string;
    // Delivered at once (the receiver answers 200): no event is pending, so the page does not poll.
    await receivedWhere(receiver, (r) => r.body.event_type === 'chat.assigned' && r.body.chat_id === chatId);

    const stream = page.waitForResponse((r) => r.url().endsWith(`/api/admin/chats/${chatId}/stream`));
    await page.goto(`/admin/chats/${chatId}`);
    await expect(page.getByRole('heading', { name: 'Chat with Lena Live' })).toBeVisible();
    const res = await stream;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/event-stream/);

    const typing = await request.put(`/api/v1/chats/${chatId}/typing`, { headers, data: { on: true, status_text: 'Checking the order' } });
    expect(typing.status()).toBe(200);
    await expect(page.getByTestId('chat-typing')).toContainText('Checking the order');

    const opened = await request.post(`/api/v1/chats/${chatId}/messages`, {
      headers,
      data: { type: 'outbound', stream: true, text: 'The answer' },
    });
    expect(opened.status()).toBe(201);
    const { transid } = (await opened.json()).response;
    const chunk = await request.post(`/api/v1/chats/${chatId}/messages/${transid}/chunks`, { headers, data: { seq: 1, text: ' is 42' } });
    expect(chunk.status()).toBe(200);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect(transcript.locator('[data-type="outbound"]').last()).toContainText('The answer is 42');
    await expect(page.getByTestId('stream-state')).toContainText('Streaming…');
    await expect(page.getByTestId('chat-typing')).toHaveCount(0);

    const closed = await request.patch(`/api/v1/chats/${chatId}/messages/${transid}`, { headers, data: { stream_state: 'closed' } });
    expect(closed.status()).toBe(200);
    await expect(page.getByTestId('stream-state')).toHaveCount(0);
    await expect(transcript.locator('[data-type="outbound"]').last()).toContainText('The answer is 42');
  } finally {
    await receiver.close();
  }
});
