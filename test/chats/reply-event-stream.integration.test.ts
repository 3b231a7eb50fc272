import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { botApiHandler } from '@/app/api/v1/_routers';
import { BotApiError, createBotClient, sendReplyStream } from '@/client';
import { takeReplyStream } from '@/lib/chats/take-reply-stream';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { until } from '../delivery/helpers';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** A mock model: first step reasons and calls `lookupOrder`, second step writes the answer. */
function mockModel(answer: string[]) {
  let step = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        // Two steps of the model's own stream parts (typed by the provider package the AI SDK bundles).
        chunks: (step++ === 0
          ? [
              { type: 'reasoning-start', id: 'r1' },
              { type: 'reasoning-delta', id: 'r1', delta: 'The customer wants order 1042.' },
              { type: 'reasoning-end', id: 'r1' },
              { type: 'tool-call', toolCallId: 'c1', toolName: 'lookupOrder', input: '{"order":"1042"}' },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
            ]
          : [
              { type: 'text-start', id: 't1' },
              ...answer.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
              { type: 'text-end', id: 't1' },
              { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
            ]) as never,
      }),
    }),
  });
}

/** A body the test feeds event by event, to look at the chat between events. */
function feed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    body,
    send: (event: object) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    end: () => controller.close(),
  };
}

describe('a reply sent as one event stream', () => {
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
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });

  const held = () => newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
  const client = () => createBotClient({ baseUrl, apiKey: t.bot.apiKey });
  const transcript = async (chatId: string) =>
    (await botApi('GET', `/chats/${chatId}/messages`, { token: t.token })).body.response.messages as Record<string, unknown>[];
  const chatOf = async (chatId: string) => (await botApi('GET', `/chats/${chatId}`, { token: t.token })).body.response;
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      if (err instanceof BotApiError) return err;
      throw err;
    }
    assert.fail('the call was not refused');
  };

  it("takes streamText's UI message stream unchanged: text to the customer, reasoning and tool results dropped, closed at finish", async () => {
    const chat = await held();
    const result = streamText({
      model: mockModel(['Your order 1042 ', 'left our warehouse ', 'this morning.']),
      prompt: 'Where is my order?',
      tools: { lookupOrder: tool({ inputSchema: z.object({ order: z.string() }), execute: async () => ({ shipped: true }) }) },
      stopWhen: stepCountIs(3),
    });
    const final = await sendReplyStream(client(), chat.chat_id, result.toUIMessageStreamResponse(), {
      statusLabels: { lookupOrder: 'Looking up your order…' },
    });
    assert.deepEqual(
      [final.type, final.text, final.stream_state],
      ['outbound', 'Your order 1042 left our warehouse this morning.', 'closed'],
    );
    const shown = (await transcript(chat.chat_id)).filter((m) => m.type === 'outbound');
    assert.deepEqual(
      shown.map((m) => [m.text, m.stream_state]),
      [['Your order 1042 left our warehouse this morning.', 'closed']],
    );
    assert.equal((await chatOf(chat.chat_id)).typing, null, 'typing is cleared at the end');
  });

  it('shows typing and the tool label as the status line, grows the text as deltas come, and closes at finish', async () => {
    const chat = await held();
    const f = feed();
    const sent = sendReplyStream(client(), chat.chat_id, f.body, {
      statusText: 'Thinking…',
      statusLabels: { lookupOrder: 'Looking up your order…' },
    });
    await until('typing with "Thinking…"', async () => (await chatOf(chat.chat_id)).typing?.status_text === 'Thinking…');
    f.send({ type: 'start' });
    f.send({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'lookupOrder', input: {} });
    await until(
      'the tool label as the status line',
      async () => (await chatOf(chat.chat_id)).typing?.status_text === 'Looking up your order…',
    );
    f.send({ type: 'text-delta', id: 't', delta: 'It left ' });
    const open = await until('the open stream with the first words', async () =>
      (await transcript(chat.chat_id)).find((m) => m.type === 'outbound' && m.text === 'It left '),
    );
    assert.equal(open.stream_state, 'open');
    f.send({ type: 'reasoning-delta', id: 'r', delta: 'not for the customer' });
    f.send({ type: 'data-weather', data: { c: 20 } });
    f.send({ type: 'text-delta', id: 't', delta: 'today.' });
    f.send({ type: 'finish' });
    f.end();
    const final = await sent;
    assert.deepEqual([final.text, final.stream_state, final.transid], ['It left today.', 'closed', open.transid]);
  });

  it("the stream's error event cuts the reply short with the text sent so far (2134), carried in the refusal", async () => {
    const chat = await held();
    const f = feed();
    const sent = refusal(sendReplyStream(client(), chat.chat_id, f.body));
    f.send({ type: 'text-delta', id: 't', delta: 'Half an ' });
    f.send({ type: 'error', errorText: 'model overloaded' });
    f.end();
    const err = await sent;
    assert.deepEqual([err.httpStatus, err.statusCode], [400, 2134]);
    const message = (err.response as { message: Record<string, unknown> }).message;
    assert.deepEqual([message.text, message.stream_state], ['Half an ', 'cut_short']);
    assert.doesNotMatch(err.description, /overloaded/, "the model's error text is not echoed");
  });

  it('a body that ends without finish is cut short (2132); one with no text sends nothing (2130)', async () => {
    const chat = await held();
    const f = feed();
    const sent = refusal(sendReplyStream(client(), chat.chat_id, f.body));
    f.send({ type: 'text-delta', id: 't', delta: 'Unfinished' });
    f.end();
    const err = await sent;
    assert.equal(err.statusCode, 2132);
    assert.equal((await transcript(chat.chat_id)).find((m) => m.text === 'Unfinished')?.stream_state, 'cut_short');

    const quiet = await held();
    const g = feed();
    const none = refusal(sendReplyStream(client(), quiet.chat_id, g.body));
    g.send({ type: 'reasoning-delta', id: 'r', delta: 'hmm' });
    g.send({ type: 'finish' });
    g.end();
    assert.equal((await none).statusCode, 2130);
    assert.equal((await transcript(quiet.chat_id)).filter((m) => m.type === 'outbound').length, 0);
    assert.equal((await chatOf(quiet.chat_id)).typing, null);
  });

  it('a handover mid-stream cuts the reply and stops the reading (2047); a chat not held is 2043 before any byte', async () => {
    const chat = await held();
    const f = feed();
    const sent = refusal(sendReplyStream(client(), chat.chat_id, f.body));
    f.send({ type: 'text-delta', id: 't', delta: 'Let me ' });
    await until('the open stream', async () => (await transcript(chat.chat_id)).find((m) => m.text === 'Let me '));
    const moved = await botApi('PATCH', `/internal/chats/${chat.chat_id}`, {
      token: t.token,
      body: { transfer: { teamid: t.humanTeam.id } },
    });
    assert.equal(moved.status, 202, JSON.stringify(moved.body));
    f.send({ type: 'text-delta', id: 't', delta: 'check.' });
    const err = await sent;
    assert.ok([2043, 2047].includes(err.statusCode ?? 0), `${err.statusCode} ${err.description}`);
    assert.equal((await transcript(chat.chat_id)).find((m) => m.text === 'Let me ')?.stream_state, 'cut_short');

    // The chat is no longer the VA's: refused before the body is read.
    const again = await refusal(sendReplyStream(client(), chat.chat_id, [{ type: 'text-delta', delta: 'x' }, { type: 'finish' }]));
    assert.deepEqual([again.httpStatus, again.statusCode], [403, 2043]);
  });

  it('takes AG-UI events; refuses an event that is not JSON (2131) and the wrong content types (2009), on the Next entry too', async () => {
    const chat = await held();
    const agui = [
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'search' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Found ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'it.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r' },
    ];
    const raw = agui.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');
    // Through Next's route handler (NextRequest), with CRLF line ends.
    const viaNext = await botApi('POST', `/chats/${chat.chat_id}/messages/stream`, {
      token: t.token,
      headers: { 'content-type': 'text/event-stream' },
      raw,
    });
    assert.equal(viaNext.status, 201, JSON.stringify(viaNext.body));
    assert.deepEqual([viaNext.body.status_code, viaNext.body.response.text], [4306, 'Found it.']);

    const bad = await botApi('POST', `/chats/${chat.chat_id}/messages/stream`, {
      token: t.token,
      headers: { 'content-type': 'text/event-stream' },
      raw: 'data: {"type":"text-delta","delta":"ok"}\n\ndata: not json\n\n',
    });
    assert.deepEqual([bad.status, bad.body.status_code], [400, 2131]);
    assert.match(bad.body.description, /event 2 is not JSON/);
    assert.equal(bad.body.response.message.stream_state, 'cut_short');

    const json = await botApi('POST', `/chats/${chat.chat_id}/messages/stream`, { token: t.token, body: { text: 'hi' } });
    assert.deepEqual([json.status, json.body.status_code], [415, 2009]);
    assert.match(json.body.description, /takes text\/event-stream/);
    const wrongRoute = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      headers: { 'content-type': 'text/event-stream' },
      raw: 'data: {}\n\n',
    });
    assert.deepEqual([wrongRoute.status, wrongRoute.body.status_code], [415, 2009]);
    const labels = await botApi('POST', `/chats/${chat.chat_id}/messages/stream?status_labels=nope`, {
      token: t.token,
      headers: { 'content-type': 'text/event-stream' },
      raw: 'data: {"type":"finish"}\n\n',
    });
    assert.deepEqual([labels.status, labels.body.status_code], [400, 2001]);
    assert.match(labels.body.description, /status_labels/);
  });

  it("stores a model's NUL and unpaired surrogates as U+FFFD, and keeps a pair split over two deltas whole", async () => {
    const chat = await held();
    const encoder = new TextEncoder();
    const event = (e: object) => encoder.encode(`data: ${JSON.stringify(e)}\n\n`);
    const [high, low] = '😀'.split('');
    async function* body() {
      // A NUL and a lone surrogate in one network read, then an emoji's halves in two deltas of the next.
      yield event({ type: 'text-delta', id: 't', delta: 'a\u0000b\uD800c ' });
      yield new Uint8Array([
        ...event({ type: 'text-delta', id: 't', delta: `x${high}` }),
        ...event({ type: 'text-delta', id: 't', delta: `${low}y` }),
      ]);
      yield event({ type: 'finish' });
    }
    const final = await takeReplyStream(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      actorUserId: t.bot.user.id,
      actorLoginId: t.bot.user.loginId,
      body: body(),
      limits: { idleMs: 5_000, maxMs: 60_000, maxEventBytes: 1024, maxBytes: 1 << 20 },
    });
    assert.equal(final.text, 'a\uFFFDb\uFFFDc x😀y');
    assert.equal(final.stream_state, 'closed');
    const listed = await botApi('GET', `/chats/${chat.chat_id}/messages`, { token: t.token });
    assert.equal(listed.body.response.messages.at(-1).text, 'a\uFFFDb\uFFFDc x😀y');
  });

  it('a stream that goes quiet is cut short (2133) with what it holds', async () => {
    const chat = await held();
    const encoder = new TextEncoder();
    async function* body() {
      yield encoder.encode('data: {"type":"text-delta","delta":"Still "}\n\n');
      await new Promise(() => {}); // never sends again
    }
    const err = await takeReplyStream(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      actorUserId: t.bot.user.id,
      actorLoginId: t.bot.user.loginId,
      body: body(),
      limits: { idleMs: 300, maxMs: 60_000, maxEventBytes: 1024, maxBytes: 1 << 20 },
    }).then(
      () => assert.fail('not cut short'),
      (e) => e,
    );
    assert.equal(err.code, 2133);
    assert.equal(err.extra.message.stream_state, 'cut_short');
    assert.equal(err.extra.message.text, 'Still ');
  });
});
