/**
 * Two production servers on one PostgreSQL database of this test's own: the console's chat page
 * and the workspace follow a chat on instance B while the VA writes through instance A. The
 * changes reach B by the cross-instance wake (a bare wake: B reads from its cursor). Then a gap:
 * both streams drop while A writes messages and part of a streamed reply, and come back to B with
 * the Last-Event-ID they had; the documented catch-up (the messages after the cursor, the open
 * reply whole) and the changes after it leave each page's copy equal to the chat as read.
 * Needs PostgreSQL and the build (run `npm run build` first; the first server builds if it is stale).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { withChunk, withMessage } from '@/components/live/transcript';
import type { Db } from '@/db/client';
import { ApiClient } from '../support/api-client';
import { newChat } from '../support/chats';
import { newSignedInAgent, signedInAdminOf } from '../support/people';
import type { ProductionServer } from '../support/production-server';
import type { SseEvent, SseReader } from '../support/sse';
import { createTenant } from '../support/tenant';
import { needsPostgres, setupTwoInstances } from '../support/two-instances';

/** A page's copy of the chat's transcript, kept from its stream's events as the page keeps it. */
class Page {
  transcript: any[] = [];
  lastId: string | undefined;
  events: string[] = [];
  constructor(readonly transcriptOf: (whole: any) => any[]) {}
  apply(e: SseEvent) {
    if (e.id !== undefined) this.lastId = e.id;
    this.events.push(e.event);
    if (e.event === 'chat') this.transcript = this.transcriptOf(e.json);
    else if (e.event === 'message') this.transcript = withMessage(this.transcript, e.json);
    else if (e.event === 'chunk') this.transcript = withChunk(this.transcript, e.json);
  }
  /** Reads and applies events until the copy satisfies `done` (bounded: the reader fails saying what did not come). */
  async until(sse: SseReader, what: string, done: (page: Page) => boolean) {
    while (!done(this)) {
      const [e] = await sse.next(1, { what });
      if (e.event !== 'lists') this.apply(e);
    }
  }
}

const texts = (transcript: any[]) => transcript.map((m) => [m.type, m.text ?? '', m.stream_state ?? null]);

describe('people\u2019s live views across two instances', { skip: needsPostgres }, () => {
  let db: Db;
  let a: ProductionServer;
  let b: ProductionServer;

  const two = setupTwoInstances('live2', {}, { portOffset: 5 });
  before(() => {
    ({ db, a, b } = two);
  });

  it('the console and the workspace on B get each change made through A, and catch up after a gap from their Last-Event-ID', async () => {
    const t = await createTenant(db);
    const signedIn = (await signedInAdminOf(db, t.account.id)).client;
    const person = (await newSignedInAgent(db, signedIn, { accountId: t.account.id, teamIds: [t.botTeam.id], tag: `live2-${t.agent.id}` }))
      .client;
    // Sessions live in the database: the cookies signed in here open B's streams too.
    const overB = (surface: 'admin' | 'agent', from: ApiClient) => {
      const client = new ApiClient(surface, { base: b.base });
      for (const [k, v] of from.cookies) client.cookies.set(k, v);
      return client;
    };
    const admin = overB('admin', signedIn);
    const agent = overB('agent', person);
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const cid = chat.chat_id;
    const bot = new ApiClient('bot', { base: a.base, token: t.token });
    const said = async (body: unknown, path = '/messages', method = 'POST') => {
      const res = await bot.request(method, `/chats/${cid}${path}`, { body });
      assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
      return res.body.response;
    };

    const consolePage = new Page((whole) => whole.messages);
    const workspacePage = new Page((whole) => whole.transcript);
    const open = async () => {
      const c = await admin.stream(`/chats/${cid}/stream`, { lastEventId: consolePage.lastId });
      const w = await agent.stream(`/stream?chat=${cid}`, { lastEventId: workspacePage.lastId });
      assert.equal(c.status, 200, JSON.stringify(c.refusal));
      assert.equal(w.status, 200, JSON.stringify(w.refusal));
      return [c.sse as SseReader, w.sse as SseReader] as const;
    };
    const both = async (streams: readonly [SseReader, SseReader], what: string, done: (page: Page) => boolean) => {
      await consolePage.until(streams[0], `${what} (console)`, done);
      await workspacePage.until(streams[1], `${what} (workspace)`, done);
    };
    const has =
      (text: string, state: string | null = null) =>
      (page: Page) =>
        page.transcript.some((m) => (m.text ?? '') === text && (m.stream_state ?? null) === state);

    // Live, across instances.
    let streams = await open();
    await both(streams, 'the whole chat', (page) => page.events.includes('chat'));
    await said({ type: 'inbound', text: 'one' });
    await both(streams, 'the message written through A', has('one'));
    const first = await said({ type: 'outbound', stream: true });
    await said({ seq: 1, text: 'The ' }, `/messages/${first.transid}/chunks`);
    await said({ seq: 2, text: 'answer.' }, `/messages/${first.transid}/chunks`);
    await both(streams, 'the streamed reply growing', has('The answer.', 'open'));
    await said({ stream_state: 'closed' }, `/messages/${first.transid}`, 'PATCH');
    await both(streams, 'the streamed reply closed', has('The answer.', 'closed'));

    // The gap: both pages lose their streams while A writes.
    await Promise.all(streams.map((s) => s.close()));
    const before = { console: consolePage.events.length, workspace: workspacePage.events.length };
    await said({ type: 'inbound', text: 'two' });
    const second = await said({ type: 'outbound', stream: true });
    await said({ seq: 1, text: 'Checking ' }, `/messages/${second.transid}/chunks`);

    // Back on B from their Last-Event-ID: no whole chat again; what they missed, then what follows.
    streams = await open();
    await both(streams, 'the catch-up: the message missed and the open reply so far', (p) => has('two')(p) && has('Checking ', 'open')(p));
    await said({ seq: 2, text: 'your order.' }, `/messages/${second.transid}/chunks`);
    await said({ stream_state: 'closed' }, `/messages/${second.transid}`, 'PATCH');
    await said({ type: 'inbound', text: 'three' });
    await both(streams, 'the reply closed and the next message', (p) => has('Checking your order.', 'closed')(p) && has('three')(p));
    assert.ok(!consolePage.events.slice(before.console).includes('chat'), 'the console was not sent the whole chat again');
    assert.ok(!workspacePage.events.slice(before.workspace).includes('chat'), 'the workspace was not sent the whole chat again');
    await Promise.all(streams.map((s) => s.close()));

    // Each copy is the chat as read: every change once, in order, nothing missing.
    const read = await admin.get(`/chats/${cid}`);
    assert.equal(read.status, 200);
    assert.deepEqual(texts(consolePage.transcript), texts(read.body.response.messages));
    assert.deepEqual(texts(workspacePage.transcript), texts(read.body.response.messages));
  });
});
