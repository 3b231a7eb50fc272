import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { Webhook } from 'standardwebhooks';
import { botApiHandler } from '@/app/api/v1/_routers';
import { deliveryRollups, eventCursors, events } from '@/db/schema';
import { retentionJobs } from '@/lib/retention/jobs';
import { runRetention } from '@/lib/retention/run-retention';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { rowsOf } from '@/platform/util/rows-of';
import { createBotChat, deliverDue, sendInbound } from '../delivery/helpers';
import { type Receiver, startReceiver } from '../delivery/receiver';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { readSse } from '../support/sse';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

type Item = { cursor: string; webhook_id: string; webhook_timestamp: string; webhook_signature: string; body: string };

const setMode = (t: Tenant, mode: 'webhook' | 'pull') =>
  updateVirtualAgent(ctx.db, { accountId: t.account.id, id: t.bot.user.id, patch: { delivery_mode: mode } });

function list(t: Tenant, query: Record<string, string | number> = {}, token = t.token) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return botApi('GET', `/events${qs ? `?${qs}` : ''}`, { token });
}

/**
 * A page of at least `n` events: on a shared PostgreSQL server another client's open transaction
 * may hold committed events back for a moment (below every snapshot's xmin), so it long-polls.
 */
async function listAtLeast(t: Tenant, n: number, query: Record<string, string | number> = {}) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    // A long-poll answers as soon as one event is there, so fewer than `n` are read again after a pause.
    const res = await list(t, { ...query, wait_seconds: 1 });
    if (res.body.response.events.length >= n || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Reads every page from `after` with `limit`, acknowledging as it goes (each GET passes the previous cursor). */
async function readAll(t: Tenant, { after, limit }: { after?: string; limit: number }) {
  const items: Item[] = [];
  let cursor = after;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await list(t, { limit, ...(cursor ? { after: cursor } : {}) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    let page = res.body.response as { events: Item[]; next_cursor: string };
    if (!page.events.length) {
      // Confirmed with a short wait: on a shared PostgreSQL server another client's open
      // transaction may hold committed events back for a moment (below every snapshot's xmin).
      page = (await list(t, { limit, wait_seconds: 1, ...(cursor ? { after: cursor } : {}) })).body.response;
    }
    if (page.events.length) {
      items.push(...page.events);
      assert.equal(page.next_cursor, page.events[page.events.length - 1].cursor);
      cursor = page.next_cursor;
      continue;
    }
    if (cursor) assert.equal(page.next_cursor, cursor, 'an empty page answers the cursor sent');
    return { items, cursor: page.next_cursor };
  }
  throw new Error('too many pages');
}

/** The VA's events as the outbox holds them, in its pull order. */
async function outboxOrder(t: Tenant) {
  return rowsOf<{ transaction_id: string; chat_id: string; seq: number; status: string }>(
    await ctx.db.execute(sql`
      select transaction_id, chat_id, seq, status from events where virtual_agent_id = ${t.bot.user.id} order by stream_xid, id`),
  );
}

function openStream(t: Tenant, { after, lastEventId }: { after?: string; lastEventId?: string } = {}) {
  const headers = new Headers({ access_token: t.token });
  if (lastEventId) headers.set('last-event-id', lastEventId);
  return botApiHandler(new NextRequest(`http://localhost/api/v1/events/stream${after ? `?after=${after}` : ''}`, { headers }));
}

describe('pulled events: GET /events, the stream and acknowledgements', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  });
  after(async () => {
    await receiver.close();
  });

  it('reads every event once, in order, across pages of any size; each chat in its own order', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chats = [await createBotChat(t), await createBotChat(t), await createBotChat(t)];
    for (let i = 0; i < 4; i++) for (const chat of chats) await sendInbound(t, chat, `m${i} of ${chat}`);
    const expected = await outboxOrder(t);
    assert.equal(expected.length, 3 + 12);
    for (const limit of [1, 4, 500]) {
      // From the start each time: a cursor of the first page is never older than the events.
      const { items } = await readAll(t, { after: `ev${t.bot.user.id.toString(16).padStart(8, '0')}${'0'.repeat(32)}`, limit });
      assert.deepEqual(
        items.map((i) => i.webhook_id),
        expected.map((e) => e.transaction_id),
        `limit ${limit}`,
      );
    }
    for (const chat of chats) {
      const seqs = expected.filter((e) => e.chat_id === chat).map((e) => e.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
        'a chat keeps its order',
      );
    }
    const cursors = (await readAll(t, { limit: 2 })).items.map((i) => i.cursor);
    assert.deepEqual(cursors, [...cursors].sort(), 'cursors grow as strings too');
  });

  it('gives the bytes and signature a webhook delivery carries: the stock Standard Webhooks verifier accepts both', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chat = await createBotChat(t);
    await sendInbound(t, chat, 'hello there');
    while ((await deliverDue(ctx.db)).length > 0);
    const delivered = receiver.requests.filter((r) => r.body?.chat_id === chat);
    assert.equal(delivered.length, 2);
    const wh = new Webhook(t.bot.signingSecret.replace(/^whsec_/, ''));
    const { items } = await readAll(t, { limit: 100 });
    assert.equal(items.length, 2, 'webhook mode reads too (a replay)');
    for (const [i, item] of items.entries()) {
      const verified = wh.verify(item.body, {
        'webhook-id': item.webhook_id,
        'webhook-timestamp': item.webhook_timestamp,
        'webhook-signature': item.webhook_signature,
      }) as Record<string, unknown>;
      assert.deepEqual(verified, JSON.parse(item.body));
      const sent = delivered[i];
      assert.equal(item.webhook_id, sent.headers['webhook-id']);
      // The same body, key for key and in the same order, but for the time of signing.
      const same = (text: string) => text.replace(/"posted_on":"[^"]+"/, '"posted_on":"-"');
      assert.equal(same(item.body), same(sent.raw));
    }
    assert.throws(() =>
      wh.verify(`${items[0].body} `, {
        'webhook-id': items[0].webhook_id,
        'webhook-timestamp': items[0].webhook_timestamp,
        'webhook-signature': items[0].webhook_signature,
      }),
    );
  });

  it('posts nothing for a pull VA, and acknowledgement marks its events delivered (log, health, charts)', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chat = await createBotChat(t);
    await sendInbound(t, chat, 'one');
    await sendInbound(t, chat, 'two');
    while ((await deliverDue(ctx.db)).length > 0);
    assert.equal(receiver.requests.filter((r) => r.body?.chat_id === chat).length, 0, 'nothing POSTed in pull mode');

    const first = await listAtLeast(t, 1, { limit: 1 });
    const c1 = first.body.response.next_cursor as string;
    assert.deepEqual(
      (await outboxOrder(t)).map((e) => e.status),
      ['pending', 'pending', 'pending'],
      'reading alone acknowledges nothing',
    );
    const second = await listAtLeast(t, 1, { limit: 1, after: c1 });
    assert.equal(second.body.response.events.length, 1);
    assert.deepEqual(
      (await outboxOrder(t)).map((e) => e.status),
      ['delivered', 'pending', 'pending'],
      'after=C acknowledges up to C',
    );

    const last = (await listAtLeast(t, 2, { after: c1 })).body.response.next_cursor as string;
    const ack = await botApi('POST', '/events/ack', { token: t.token, body: { cursor: last } });
    assert.equal(ack.status, 200, JSON.stringify(ack.body));
    assert.equal(ack.body.status_code, 4310);
    assert.equal(ack.body.response.acknowledged, last);
    assert.deepEqual(
      (await outboxOrder(t)).map((e) => e.status),
      ['delivered', 'delivered', 'delivered'],
    );
    const rows = await ctx.db.select().from(events).where(eq(events.chatId, chat));
    assert.ok(
      rows.every((e) => e.deliveredAt !== null),
      'each with when',
    );
    const [rollup] = await ctx.db
      .select({ delivered: sql<number>`sum(${deliveryRollups.delivered})::int` })
      .from(deliveryRollups)
      .where(eq(deliveryRollups.virtualAgentId, t.bot.user.id));
    assert.equal(rollup.delivered, 3, 'counted once each in the delivery rollups');

    // Never back: an older cursor changes nothing; without `after` the read starts after the acknowledged position.
    const back = await botApi('POST', '/events/ack', { token: t.token, body: { cursor: c1 } });
    assert.equal(back.body.response.acknowledged, last);
    assert.deepEqual((await list(t)).body.response, { events: [], next_cursor: last });
    await sendInbound(t, chat, 'three');
    // With a wait: on a shared PostgreSQL server another client's open transaction may hold the new
    // event back for a moment (it is given once it is below every snapshot's xmin).
    const next = await list(t, { wait_seconds: 5 });
    assert.equal(next.body.response.events.length, 1);
    assert.equal(JSON.parse(next.body.response.events[0].body).payload.messages[0].text, 'three');
  });

  it('sends a keep-alive comment on a quiet event stream', async () => {
    const t = await createTenant(ctx.db);
    await setMode(t, 'pull');
    const res = await openStream(t);
    assert.equal(res.status, 200);
    const sse = readSse(res.body!);
    // Bounded well past the interval (10 s): nothing is written, so only the stream's timer sends it.
    for (const deadline = Date.now() + 60_000; !sse.frames.some((f) => f.comment === 'keep-alive'); ) {
      assert.ok(Date.now() < deadline, 'no keep-alive comment within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(
      sse.frames.filter((f) => f.data !== undefined),
      [],
      'no event on a quiet stream',
    );
    await sse.close();
  });

  it('in webhook mode acknowledgements change nothing', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chat = await createBotChat(t);
    const { cursor } = await readAll(t, { limit: 10 });
    const ack = await botApi('POST', '/events/ack', { token: t.token, body: { cursor } });
    assert.equal(ack.status, 200);
    const [row] = await ctx.db.select().from(events).where(eq(events.chatId, chat));
    assert.equal(row.status, 'pending');
    const kept = await ctx.db.select().from(eventCursors).where(eq(eventCursors.virtualAgentId, t.bot.user.id));
    assert.ok(kept.every((c) => c.ackedId === 0));
  });

  it('a long-poll answers when an event commits', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chat = await createBotChat(t);
    const { cursor } = await readAll(t, { limit: 10 });
    const waiting = list(t, { after: cursor, wait_seconds: 30 });
    await new Promise((r) => setTimeout(r, 50));
    await sendInbound(t, chat, 'are you there?');
    const res = await waiting;
    assert.equal(res.status, 200);
    assert.equal(res.body.response.events.length, 1, 'woken by the commit, not ended by the wait');
    const empty = await list(t, { after: res.body.response.next_cursor, wait_seconds: 1 });
    assert.deepEqual(empty.body.response, { events: [], next_cursor: res.body.response.next_cursor });
  });

  it('streams events as Server-Sent Events, resumes after Last-Event-ID or ?after= with no gap or repeat', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chat = await createBotChat(t);
    await sendInbound(t, chat, 'a');
    const res = await openStream(t);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const sse = readSse(res.body!);
    const firstTwo = await sse.events(2);
    assert.deepEqual(
      firstTwo.map((f) => f.event),
      ['chat.assigned', 'message.received'],
    );
    await sendInbound(t, chat, 'b');
    const three = await sse.events(3);
    const item = JSON.parse(three[2].data!) as Item;
    assert.equal(three[2].id, item.cursor);
    assert.equal(JSON.parse(item.body).payload.messages[0].text, 'b');
    await sse.close();

    await sendInbound(t, chat, 'c');
    await sendInbound(t, chat, 'd');
    for (const resume of [{ lastEventId: three[2].id }, { after: three[2].id }]) {
      const again = readSse((await openStream(t, resume)).body!);
      const got = await again.events(2);
      assert.deepEqual(
        got.map((f) => JSON.parse(JSON.parse(f.data!).body).payload.messages[0].text),
        ['c', 'd'],
        JSON.stringify(resume),
      );
      await again.close();
    }
    const all = await outboxOrder(t);
    assert.equal(all.length, 5);
  });

  it('holds at most 5 streams per VA; the 6th is 2062 (429) and a closed one frees its slot', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const open = [];
    for (let i = 0; i < 5; i++) {
      const res = await openStream(t);
      assert.equal(res.status, 200);
      open.push(readSse(res.body!));
    }
    const sixth = await openStream(t);
    assert.equal(sixth.status, 429);
    assert.equal((await sixth.json()).status_code, 2062);
    await open[0].close();
    // The slot is given back once the stream has stopped; a few tries for that to land.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const res = await openStream(t);
      status = res.status;
      if (status === 200) open.push(readSse(res.body!));
      else await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 200);
    for (const s of open) await s.close();
  });

  it("refuses bad input in the envelope; another VA's or account's cursor is not found", async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const other = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await createBotChat(other);
    const theirs = (await readAll(other, { limit: 10 })).cursor;
    const cases: [Record<string, string | number>, number, number][] = [
      [{ after: 'nope' }, 400, 2060],
      [{ after: `${theirs.slice(0, -1)}z` }, 400, 2060],
      [{ limit: 0 }, 400, 2001],
      [{ limit: 501 }, 400, 2001],
      [{ limit: 'ten' }, 400, 2001],
      [{ wait_seconds: 31 }, 400, 2001],
      [{ wait_seconds: -1 }, 400, 2001],
      [{ cursor: 'x' }, 400, 2001],
      [{ after: theirs }, 404, 2061],
    ];
    for (const [query, status, code] of cases) {
      const res = await list(t, query);
      assert.equal(res.status, status, JSON.stringify(query));
      assert.equal(res.body.status_code, code, JSON.stringify(query));
      assert.ok(Array.isArray(res.body.response?.errors), JSON.stringify(res.body));
    }
    const theirsAck = await botApi('POST', '/events/ack', { token: t.token, body: { cursor: theirs } });
    assert.equal(theirsAck.body.status_code, 2061);
    const noBody = await botApi('POST', '/events/ack', { token: t.token, body: {} });
    assert.equal(noBody.body.status_code, 2000);
    const stream = await openStream(t, { lastEventId: theirs });
    assert.equal(stream.status, 404);
    // Nothing of the other account's VA is readable from here.
    const mine = await readAll(t, { limit: 100 });
    const ids = new Set((await outboxOrder(other)).map((e) => e.transaction_id));
    assert.ok(mine.items.every((i) => !ids.has(i.webhook_id)));
    const noToken = await botApi('GET', '/events');
    assert.equal(noToken.body.status_code, 2002);
  });

  it('refuses a cursor the service never gave (past the newest event, or between events) with 2064 on every pull route, acknowledging nothing', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chat = await createBotChat(t);
    const first = await readAll(t, { limit: 100 });
    assert.equal(first.items.length, 1);
    const given = first.cursor;
    const va = given.slice(2, 10);
    const hex = (n: bigint) => n.toString(16).padStart(16, '0');
    const xid = BigInt(`0x${given.slice(10, 26)}`);
    const id = BigInt(`0x${given.slice(26)}`);
    const forged = [
      `ev${va}${hex(xid + 1_000_000n)}${hex(id)}`, // far past the newest event
      `ev${va}${hex(xid)}${hex(id + 1n)}`, // the next id, never an event of this VA
      `ev${va}${hex(BigInt(Number.MAX_SAFE_INTEGER))}${hex(1n)}`, // the largest position a cursor can hold
    ];
    for (const cursor of forged) {
      const read = await list(t, { after: cursor });
      assert.equal(read.status, 409, JSON.stringify(read.body));
      assert.equal(read.body.status_code, 2064);
      assert.equal(read.body.response.acknowledged_cursor, given, 'a read without a cursor starts at the acknowledged position');
      const ack = await botApi('POST', '/events/ack', { token: t.token, body: { cursor } });
      assert.equal(ack.status, 409, JSON.stringify(ack.body));
      assert.equal(ack.body.status_code, 2064);
      for (const resume of [{ after: cursor }, { lastEventId: cursor }]) {
        const stream = await openStream(t, resume);
        assert.equal(stream.status, 409, JSON.stringify(resume));
        assert.equal((await stream.json()).status_code, 2064);
      }
    }
    // Nothing moved: a new event is read without a cursor, and the cursors the service gave still work.
    await sendInbound(t, chat, 'after the forged cursors');
    const next = await listAtLeast(t, 1);
    assert.equal(next.body.response.events.length, 1);
    assert.equal(JSON.parse(next.body.response.events[0].body).payload.messages[0].text, 'after the forged cursors');
    assert.equal((await list(t, { after: given })).status, 200);
    assert.equal((await botApi('POST', '/events/ack', { token: t.token, body: { cursor: next.body.response.next_cursor } })).status, 200);
    const start = `ev${va}${'0'.repeat(32)}`;
    assert.equal((await list(t, { after: start })).status, 200, 'the start is a cursor of every VA');
  });

  it('answers 410 with the oldest cursor once retention removed events after the cursor', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const chat = await createBotChat(t);
    await sendInbound(t, chat, 'old');
    await sendInbound(t, chat, 'kept');
    const start = `ev${t.bot.user.id.toString(16).padStart(8, '0')}${'0'.repeat(32)}`;
    const page = (await listAtLeast(t, 2, { after: start, limit: 2 })).body.response;
    await botApi('POST', '/events/ack', { token: t.token, body: { cursor: page.next_cursor } });
    await ctx.db
      .update(events)
      .set({ deliveredAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(and(eq(events.chatId, chat), eq(events.status, 'delivered')));
    await runRetention(ctx.db, {
      jobs: retentionJobs({
        EVENT_RETENTION_DAYS: 30,
        FAILED_EVENT_RETENTION_DAYS: 30,
        CHAT_RETENTION_DAYS: undefined,
        ROLLUP_RETENTION_DAYS: 400,
        AUDIT_RETENTION_DAYS: 400,
      } as never),
      batchSize: 100,
    });
    const gone = await list(t, { after: start });
    assert.equal(gone.status, 410);
    assert.equal(gone.body.status_code, 2063);
    assert.equal(gone.body.response.oldest_cursor, page.next_cursor);
    const from = await list(t, { after: gone.body.response.oldest_cursor });
    assert.equal(from.status, 200);
    assert.deepEqual(
      from.body.response.events.map((i: Item) => JSON.parse(i.body).payload.messages[0].text),
      ['kept'],
    );
    // Still fine: the cursor of the newest removed event itself lost nothing after it.
    assert.equal((await list(t, { after: page.events[1].cursor })).status, 200);
    assert.equal((await list(t, { after: page.events[0].cursor })).status, 410);
  });

  it('answers 410 for a cursor before the events of closed chats CHAT_RETENTION_DAYS removed', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await setMode(t, 'pull');
    const old = await createBotChat(t);
    await sendInbound(t, old, 'long ago');
    const closed = await botApi('PATCH', `/chats/${old}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { status: 'closed' },
    });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const kept = await createBotChat(t);
    const start = `ev${t.bot.user.id.toString(16).padStart(8, '0')}${'0'.repeat(32)}`;
    const { items } = await readAll(t, { after: start, limit: 500 });
    const ofOld = items.filter((i) => JSON.parse(i.body).chat_id === old);
    assert.equal(ofOld.length, 3, 'chat.assigned, message.received, chat.closed');
    await ctx.db.execute(sql`update chats set closed_at = now() - interval '400 days' where id = ${old}`);
    const run = await runRetention(ctx.db, {
      jobs: retentionJobs({
        EVENT_RETENTION_DAYS: 30,
        FAILED_EVENT_RETENTION_DAYS: 30,
        CHAT_RETENTION_DAYS: 30,
        ROLLUP_RETENTION_DAYS: 400,
        AUDIT_RETENTION_DAYS: 400,
      } as never),
      batchSize: 100,
    });
    assert.ok((run.find((r) => r.job === 'closed-chats')?.deleted ?? 0) >= 1);
    const gone = await list(t, { after: start });
    assert.equal(gone.status, 410, JSON.stringify(gone.body));
    assert.equal(gone.body.status_code, 2063);
    assert.equal(gone.body.response.oldest_cursor, ofOld[2].cursor);
    const from = (await list(t, { after: gone.body.response.oldest_cursor })).body.response.events as Item[];
    assert.deepEqual(
      from.map((i) => JSON.parse(i.body).chat_id),
      [kept],
    );
    assert.equal((await list(t, { after: ofOld[1].cursor })).status, 410);
  });
});
