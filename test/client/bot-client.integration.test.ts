import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { botApiHandler } from '@/app/api/v1/_routers';
import { BotApiError, createBotClient, responseOf, verifyPulledEvent, verifyWebhook, WebhookVerificationError } from '@/client';
import { accessTokens } from '@/db/schema';
import { forgetAllTokens } from '@/lib/bot-auth/token-cache';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// client/ against the bot API over a real socket (the node:http entry of `npm start`).
describe('the TypeScript client', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let server: http.Server;
  let baseUrl: string;
  let authorizeCalls = 0;
  const streams: http.ServerResponse[] = [];

  before(async () => {
    t = await createTenant(ctx.db);
    server = http.createServer((req, res) => {
      if (req.url === '/api/v1/authorize') authorizeCalls++;
      if (req.url?.startsWith('/api/v1/events/stream')) streams.push(res);
      void serveNode(botApiHandler.core, req, res);
    });
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('authorizes once, sends typed calls, and replays an idempotent reply', async () => {
    const api = createBotClient({ baseUrl: `${baseUrl}/api/v1/`, apiKey: t.bot.apiKey });
    const before = authorizeCalls;
    const teams = responseOf(await api.teams.listTeams());
    assert.ok(teams.some((team) => team.team_id === t.botTeam.id));
    const chat = responseOf(
      await api.chats.createChat({
        body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+15550111' }, assignee: t.bot.user.loginId },
      }),
    );
    const send = () =>
      api.messages.postMessage({
        params: { chat_id: chat.chat_id },
        headers: { 'idempotency-key': `client-test-${chat.chat_id}` },
        body: { type: 'outbound', text: 'Hello from the client' },
      });
    const first = responseOf(await send());
    const again = responseOf(await send());
    assert.equal(again.transid, first.transid, 'the retry answers the first message');
    assert.equal(authorizeCalls - before, 1, 'one /authorize for all of these calls');
  });

  it('fetches a new token when the service says the old one expired, and repeats the call', async () => {
    const api = createBotClient({ baseUrl, apiKey: t.bot.apiKey });
    const token = await api.accessToken();
    await ctx.db
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.userId, t.bot.user.id));
    // Changed behind the API's back: this process's token cache has not heard of it.
    forgetAllTokens();
    const res = await api.teams.listTeams();
    assert.equal(res.status, 200);
    assert.notEqual(await api.accessToken(), token);
  });

  it('turns an error answer into a BotApiError with the code and the trxid', async () => {
    const api = createBotClient({ baseUrl, apiKey: t.bot.apiKey });
    const res = await api.chats.getChat({ params: { chat_id: 'no-such-chat' } });
    assert.throws(
      () => responseOf(res),
      (err: unknown) => err instanceof BotApiError && err.statusCode === 2031 && err.httpStatus === 404 && /\S/.test(err.trxid ?? ''),
    );
    const wrongKey = createBotClient({ baseUrl, apiKey: 'vak_not-a-key' });
    await assert.rejects(wrongKey.teams.listTeams(), (err: unknown) => err instanceof BotApiError && err.statusCode === 2005);
  });

  it('verifies a signed delivery on the raw body and refuses a changed one', () => {
    const secret = t.bot.signingSecret;
    const body = JSON.stringify({
      event_type: 'chat.closed',
      chat_id: 'c-1',
      payload: { timestamp: '2026-03-02T09:21:40.317Z', chat_outcome: '' },
    });
    const id = 'evt-1';
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
    const { id: gotId, event } = verifyWebhook(secret, Buffer.from(body), headers);
    assert.equal(gotId, id);
    assert.equal(event.event_type, 'chat.closed');
    assert.throws(() => verifyWebhook(secret, body.replace('c-1', 'c-2'), headers), WebhookVerificationError);
    assert.throws(
      () => verifyWebhook(secret, body, { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) }),
      WebhookVerificationError,
    );
  });

  it('long-polls and streams pulled events, verifies them as webhooks, and resumes the stream after a cut', async () => {
    const api = createBotClient({ baseUrl, apiKey: t.bot.apiKey });
    const chat = responseOf(
      await api.chats.createChat({
        body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+15550112' }, assignee: t.bot.user.loginId },
      }),
    );
    // Long-polled, read on until the chat's event is there: on a shared PostgreSQL a transaction of
    // another test file holds newer events back (gap-free order), and a page may end before ours.
    const ofChat = <E extends Parameters<typeof verifyPulledEvent>[1]>(events: E[]) =>
      events.filter((e) => verifyPulledEvent(t.bot.signingSecret, e).event.chat_id === chat.chat_id);
    let page = responseOf(await api.events.listEvents({ query: { limit: 500, wait_seconds: 2 } }));
    const mine = ofChat(page.events);
    for (let reads = 1; !mine.length && reads < 20; reads++) {
      page = responseOf(await api.events.listEvents({ query: { limit: 500, wait_seconds: 2, after: page.next_cursor } }));
      mine.push(...ofChat(page.events));
    }
    assert.deepEqual(
      mine.map((e) => verifyPulledEvent(t.bot.signingSecret, e).event.event_type),
      ['chat.assigned'],
    );
    assert.throws(() => verifyPulledEvent(t.bot.signingSecret, { ...mine[0], body: `${mine[0].body} ` }), WebhookVerificationError);

    // The stream, over the node:http entry: read one, cut it, read on from where it stopped.
    const stop = new AbortController();
    const seen: string[] = [];
    const stream = api.streamEvents({ after: page.next_cursor, signal: stop.signal, reconnectMs: 10 });
    const inbound = (text: string) =>
      api.messages.postMessage({ params: { chat_id: chat.chat_id }, body: { type: 'inbound', text } }).then(responseOf);
    await inbound('first');
    for await (const item of stream) {
      const { event } = verifyPulledEvent(t.bot.signingSecret, item);
      if (event.event_type !== 'message.received') continue;
      seen.push(event.payload.messages[0].text ?? '');
      if (seen.length === 1) {
        // The stream's connection is cut: the client reconnects with Last-Event-ID.
        for (const res of streams.splice(0)) res.destroy();
        await inbound('second');
      }
      if (seen.length === 2) break;
    }
    stop.abort();
    assert.deepEqual(seen, ['first', 'second'], 'no gap and no repeat across the cut');
  });
});
