import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { botApiHandler } from '@/app/api/v1/_routers';
import { BotApiError, createBotClient, sendReplyStream } from '@/client';
import { resetEnv } from '@/env';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const KIB = 1024;

/**
 * The intake limits of POST /chats/{chat_id}/messages/stream, over a real socket through the node
 * entry: the whole body (8 MiB), one event (MAX_BODY_BYTES) and the whole stream's time
 * (REPLY_STREAM_MAX_SECONDS). Each cuts the reply short and the refusal carries what the customer has.
 */
describe('the limits of a reply sent as one event stream', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let server: http.Server;
  let baseUrl: string;

  before(async () => {
    server = http.createServer((req, res) => void serveNode(botApiHandler.core, req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });

  const held = () => newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
  const client = () => createBotClient({ baseUrl, apiKey: t.bot.apiKey });
  const transcript = async (chatId: string) =>
    (await botApi('GET', `/chats/${chatId}/messages`, { token: t.token })).body.response.messages as Record<string, unknown>[];
  const refusal = async (p: Promise<unknown>): Promise<BotApiError> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof BotApiError) return err;
      throw err;
    }
    assert.fail('the call was not refused');
  };
  const cutShort = (err: BotApiError) => (err.response as { message: { text: string; stream_state: string } }).message;

  it('refuses a body past 8 MiB in all (2008), though every event is within its own limit, and keeps the words sent', async () => {
    const chat = await held();
    const reasoning = 'r'.repeat(64 * KIB);
    // 64 KiB events the route drops (reasoning): 200 of them, 12.5 MiB, then a finish that a body
    // within the limit would have closed the reply with.
    async function* body() {
      yield { type: 'text-delta', id: 't', delta: 'Before the flood. ' };
      for (let i = 0; i < 200; i++) yield { type: 'reasoning-delta', id: 'r', delta: reasoning };
      yield { type: 'finish' };
    }
    const err = await refusal(sendReplyStream(client(), chat.chat_id, body()));
    assert.deepEqual([err.httpStatus, err.statusCode], [413, 2008], err.description);
    assert.match(err.description, /at most 8388608 bytes/);
    assert.deepEqual(cutShort(err), { ...cutShort(err), text: 'Before the flood. ', stream_state: 'cut_short' });
    const shown = (await transcript(chat.chat_id)).filter((m) => m.type === 'outbound');
    assert.deepEqual(
      shown.map((m) => [m.text, m.stream_state]),
      [['Before the flood. ', 'cut_short']],
    );
  });

  it('refuses one event larger than MAX_BODY_BYTES (2008), though the whole body is far below 8 MiB', async () => {
    const chat = await held();
    const big = 'x'.repeat(256 * KIB + 1);
    const err = await refusal(
      sendReplyStream(client(), chat.chat_id, [
        { type: 'text-delta', id: 't', delta: 'Small first. ' },
        { type: 'reasoning-delta', id: 'r', delta: big },
        { type: 'finish' },
      ]),
    );
    assert.deepEqual([err.httpStatus, err.statusCode], [413, 2008], err.description);
    assert.doesNotMatch(err.description, /8388608/, 'not the whole-body limit');
    assert.deepEqual([cutShort(err).text, cutShort(err).stream_state], ['Small first. ', 'cut_short']);
  });

  it('cuts a stream that runs past REPLY_STREAM_MAX_SECONDS (2133), though it never goes quiet', async (c) => {
    // The stream's longest time, shortened so the test waits a second instead of five minutes (the
    // route reads it per request); the idle limit stays far above the pace of the events below.
    process.env.REPLY_STREAM_MAX_SECONDS = '1';
    process.env.STREAM_IDLE_SECONDS = '60';
    resetEnv();
    c.after(() => {
      delete process.env.REPLY_STREAM_MAX_SECONDS;
      delete process.env.STREAM_IDLE_SECONDS;
      resetEnv();
    });
    const chat = await held();
    let produced = 0;
    // A word every 50 ms, far inside the idle limit, for up to a minute: only the duration ends it.
    async function* body() {
      for (; produced < 1200; produced++) {
        yield { type: 'text-delta', id: 't', delta: produced === 0 ? 'Going on' : '.' };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      yield { type: 'finish' };
    }
    const err = await refusal(sendReplyStream(client(), chat.chat_id, body()));
    assert.deepEqual([err.httpStatus, err.statusCode], [408, 2133], err.description);
    assert.match(err.description, /took longer than 1 s/);
    assert.ok(produced < 1200, 'the stream was cut before its end');
    const message = cutShort(err);
    assert.equal(message.stream_state, 'cut_short');
    assert.match(message.text, /^Going on\.*$/);
  });
});
