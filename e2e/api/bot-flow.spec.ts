import { Webhook } from 'standardwebhooks';
import { expect, test } from '../fixtures';
import { QUICK_REPLY_MESSAGE, registerBot, startReceiver } from '../support';

test('a bot registers, receives signed events, replies, tags and hands over', async ({ request }) => {
  const receiver = await startReceiver();
  try {
    const { team, other, asset, va } = await registerBot(request, receiver.url);

    const auth = await request.post('/api/v1/authorize', { data: { api_key: va.api_key } });
    expect(auth.status()).toBe(200);
    const token = (await auth.json()).response.access_token;
    expect(auth.headers().access_token).toBe(token);
    const headers = { access_token: token };

    const created = await request.post('/api/v1/chats', {
      headers,
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: 'visitor-42', name: 'Visitor' },
        assignee: va.login_id,
        thread_id: 'thread-42',
        browserfingerprint: 'fp-42',
        messages: [{ type: 'inbound', text: 'Hello?' }],
      },
    });
    expect(created.status()).toBe(201);
    const chat = (await created.json()).response;

    const [assigned] = await receiver.waitFor(1);
    const wh = new Webhook(va.signing_secret);
    expect(() => wh.verify(assigned.raw, assigned.headers as Record<string, string>)).not.toThrow();
    expect(assigned.headers['x-bot-secret']).toBe('static-value');
    expect(assigned.headers['webhook-id']).toBe(assigned.body.transaction_id);
    expect(assigned.body).toMatchObject({
      event_type: 'chat.assigned',
      channel: 'livechat',
      chat_id: chat.chat_id,
      asset: String(asset.id),
      destination_id: 'visitor-42',
      thread_id: 'thread-42',
      browserfingerprint: 'fp-42',
      subject: '',
      payload: {
        skill: null,
        messages: [{ type: 'text', text: 'Hello?', transid: assigned.body.transaction_id, message: { transid: chat.messages[0].transid } }],
      },
    });

    const inbound = await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers,
      data: { type: 'inbound', text: 'Anyone there?' },
    });
    expect(inbound.status()).toBe(201);
    const [, received] = await receiver.waitFor(2);
    expect(received.body.event_type).toBe('message.received');
    expect(received.body.payload.messages[0].text).toBe('Anyone there?');

    const reply = await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers,
      data: QUICK_REPLY_MESSAGE,
    });
    expect(reply.status()).toBe(201);

    const tagged = await request.patch(`/api/v1/chats/${chat.chat_id}`, {
      headers: { ...headers, team_id: String(team.id) },
      data: { tags: ['billing'] },
    });
    expect(tagged.status()).toBe(200);
    expect((await tagged.json()).response.tag).toEqual(['billing']);

    const moved = await request.patch(`/api/v1/internal/chats/${chat.chat_id}`, {
      headers,
      data: { transfer: { teamid: String(other.id), skill_name: 'billing' } },
    });
    expect(moved.status()).toBe(202);
    expect(await moved.json()).toEqual({ status_code: 4342, description: 'Chat transferred successfully', response: '' });

    const readDetail = async () => {
      const detail = await request.get(`/api/admin/chats/${chat.chat_id}`);
      expect(detail.status()).toBe(200);
      return (await detail.json()).response;
    };
    // The receiver has the chat.assigned event; wait until the server has recorded it as delivered.
    await expect.poll(async () => (await readDetail()).events.filter((x: any) => x.status === 'delivered').length).toBeGreaterThan(0);
    const d = await readDetail();
    expect(d.team_id).toBe(other.id);
    expect(d.events.length).toBeGreaterThanOrEqual(2);
    const delivered = d.events.filter((x: any) => x.status === 'delivered');
    expect(delivered.length).toBeGreaterThan(0);
    for (const e of delivered) expect(e.attempts.length).toBeGreaterThanOrEqual(1);
  } finally {
    await receiver.close();
  }
});

test('every answer is an envelope with a trxid, errors included', async ({ request }) => {
  const missing = await request.get('/api/v1/teams');
  expect(missing.status()).toBe(400);
  expect((await missing.json()).status_code).toBe(2002);
  expect(missing.headers().trxid).toBeTruthy();
  const wrong = await request.delete('/api/v1/teams', { headers: { access_token: 'x' } });
  expect(wrong.status()).toBe(405);
  expect((await wrong.json()).status_code).toBe(2099);
  const malformed = await request.post('/api/v1/authorize', {
    headers: { 'content-type': 'application/json' },
    data: Buffer.from('{"api_key":'),
  });
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).status_code).toBe(2006);
  const doc = await request.get('/api/v1/openapi.json');
  expect(doc.status()).toBe(200);
  expect((await doc.json()).openapi).toMatch(/^3\./);
});
