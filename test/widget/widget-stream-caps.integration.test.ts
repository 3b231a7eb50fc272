/**
 * The caps on open widget streams (WIDGET_STREAMS_PER_CUSTOMER, WIDGET_STREAMS_PER_CHAT): refused
 * with 2066 in the envelope past either, given back when a stream ends, counted from the shared
 * table (rows another instance holds count; rows of a dead instance lapse), and exact under
 * concurrent opens. Instances are rows of `widget_stream_instances`, one refreshed per instance.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { teams } from '@/db/schema';
import { env } from '@/env';
import { refreshWidgetStreams } from '@/lib/widget/widget-stream-slots';
import { rowsOf } from '@/platform/util/rows-of';
import { ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { newVisitor } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

describe('caps on open chat widget streams', () => {
  useEnv({ WIDGET_STREAMS_PER_CUSTOMER: '3', WIDGET_STREAMS_PER_CHAT: '2' });
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.execute(`update accounts set default_team_id = ${t.botTeam.id} where id = ${t.account.id}`);
  });

  const open = (chatId: string, token: string) =>
    new ApiClient('widget', { token, address: '198.51.100.91' }).stream(`/chats/${chatId}/stream`);
  const startChat = async (token: string, text: string) =>
    (await widgetApi('POST', '/chats', { token, body: { text } })).body.response.chat_id as string;
  const closeChat = (chatId: string) =>
    botApi('PATCH', `/chats/${chatId}`, { token: t.token, headers: { team_id: String(t.botTeam.id) }, body: { status: 'closed' } });
  const rows = async (where: string) =>
    Number(rowsOf<{ n: number }>(await ctx.db.execute(sql.raw(`select count(*)::int as n from widget_streams where ${where}`)))[0]?.n);
  /** Streams give their slot back asynchronously after the client leaves: wait (bounded) for the row to go. */
  const untilRows = async (where: string, n: number) => {
    for (let i = 0; i < 200; i++) {
      if ((await rows(where)) === n) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`widget_streams where ${where}: expected ${n} rows, have ${await rows(where)}`);
  };

  it('refuses the stream past the cap per chat and per customer with 2066, and admits again once one ends', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const first = await startChat(v.token, 'first chat');
    const a1 = await open(first, v.token);
    const a2 = await open(first, v.token);
    assert.deepEqual([a1.status, a2.status], [200, 200]);
    const a3 = await open(first, v.token);
    assert.equal(a3.status, 429);
    assert.equal(a3.refusal.status_code, 2066);
    assert.match(a3.refusal.description, /Too many open chat streams/);
    assert.equal(a3.headers.get('retry-after'), '60', 'a lost stream lapses within a minute');

    // A second chat of the same customer: its cap is free, the customer's has one left (3).
    await closeChat(first);
    const second = await startChat(v.token, 'second chat');
    assert.notEqual(second, first);
    const b1 = await open(second, v.token);
    assert.equal(b1.status, 200);
    const b2 = await open(second, v.token);
    assert.equal(b2.status, 429, 'the customer holds 3 streams');
    assert.equal(b2.refusal.status_code, 2066);
    assert.equal(b2.headers.get('retry-after'), '60');

    // Another customer is not held back by this one.
    const w = await newVisitor(t.assets.livechat.id);
    const theirs = await open(await startChat(w.token, 'hello'), w.token);
    assert.equal(theirs.status, 200);
    await theirs.sse!.close();

    // One stream leaves: its slot comes back and the next open is admitted.
    await a1.sse!.close();
    await untilRows(`chat_id = '${first}'`, 1);
    const b3 = await open(second, v.token);
    assert.equal(b3.status, 200);
    const [state] = await b3.sse!.next(1);
    assert.equal(state.event, 'chat');
    for (const s of [a2, b1, b3]) await s.sse!.close();
    await untilRows(`chat_id in ('${first}', '${second}')`, 0);
  });

  it('counts streams held by other live instances, and not those of an instance that stopped marking itself alive', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = await startChat(v.token, 'counted everywhere');
    const customer = `${t.assets.livechat.id}:${v.livechatId}`;
    // Another instance, alive, holds one; a dead one (not seen for two minutes) left two.
    await ctx.db.execute(sql`insert into widget_stream_instances (id) values ('other-instance')`);
    await ctx.db.execute(sql`insert into widget_stream_instances (id, seen_at) values ('dead-instance', now() - interval '2 minutes')`);
    await ctx.db.execute(
      sql`insert into widget_streams (id, customer, chat_id, instance_id) values ('other-1', ${customer}, ${chatId}, 'other-instance'),
        ('dead-1', ${customer}, ${chatId}, 'dead-instance'), ('dead-2', ${customer}, ${chatId}, 'dead-instance')`,
    );
    const mine = await open(chatId, v.token);
    assert.equal(mine.status, 200);
    const over = await open(chatId, v.token);
    assert.equal(over.status, 429, "the other instance's stream counts; the dead one's do not");
    assert.equal(over.refusal.status_code, 2066);
    // One row per instance is refreshed, not one per stream: this stream's row keeps the time it opened.
    const mineSeen = async () =>
      rowsOf(await ctx.db.execute(sql`select seen_at from widget_streams where chat_id = ${chatId} and id not like '%-_'`));
    const before = await mineSeen();
    assert.equal(before.length, 1);
    await refreshWidgetStreams();
    assert.deepEqual(await mineSeen(), before);
    // The refresh deleted the dead instance and its streams' rows with it; the live one's stay.
    assert.equal(await rows(`instance_id = 'dead-instance' or id like 'dead-%'`), 0);
    assert.equal(rowsOf(await ctx.db.execute(sql`select 1 from widget_stream_instances where id = 'dead-instance'`)).length, 0);
    assert.equal(await rows(`id = 'other-1'`), 1);
    // The other instance dies too: its stream no longer counts, so a second stream here is admitted.
    await ctx.db.execute(sql`update widget_stream_instances set seen_at = now() - interval '2 minutes' where id = 'other-instance'`);
    const second = await open(chatId, v.token);
    assert.equal(second.status, 200);
    await second.sse!.close();
    await mine.sse!.close();
    await ctx.db.execute(sql`delete from widget_stream_instances where id = 'other-instance'`);
    await untilRows(`chat_id = '${chatId}'`, 0);
  });

  it("counts the release before's rows (no instance) while their own seen_at is fresh, and deletes them once stale", async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = await startChat(v.token, 'from the release before');
    const customer = `${t.assets.livechat.id}:${v.livechatId}`;
    await ctx.db.execute(sql`insert into widget_streams (id, customer, chat_id) values ('old-fresh', ${customer}, ${chatId})`);
    await ctx.db.execute(
      sql`insert into widget_streams (id, customer, chat_id, seen_at) values ('old-stale', ${customer}, ${chatId}, now() - interval '2 minutes')`,
    );
    const mine = await open(chatId, v.token);
    assert.equal(mine.status, 200);
    const over = await open(chatId, v.token);
    assert.equal(over.status, 429, 'the fresh row counts; the stale one does not');
    await refreshWidgetStreams();
    assert.equal(await rows(`id = 'old-stale'`), 0);
    assert.equal(await rows(`id = 'old-fresh'`), 1);
    await mine.sse!.close();
    await ctx.db.execute(sql`delete from widget_streams where id = 'old-fresh'`);
  });

  it('marks itself alive again when it was taken for dead (its row deleted) and admits the stream', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = await startChat(v.token, 'after a long pause');
    const first = await open(chatId, v.token);
    assert.equal(first.status, 200);
    // Another instance deleted this one's row (a pause of over a minute): its streams' rows went with it.
    await ctx.db.execute(sql`delete from widget_stream_instances`);
    assert.equal(await rows(`chat_id = '${chatId}'`), 0);
    const again = await open(chatId, v.token);
    assert.equal(again.status, 200);
    assert.equal(await rows(`chat_id = '${chatId}' and instance_id is not null`), 1);
    for (const s of [first, again]) await s.sse!.close();
    await untilRows(`chat_id = '${chatId}'`, 0);
  });

  it('admits exactly the cap under concurrent opens', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = await startChat(v.token, 'all at once');
    const opened = await Promise.all(Array.from({ length: 8 }, () => open(chatId, v.token)));
    const statuses = opened.map((o) => o.status).sort();
    assert.deepEqual(statuses, [200, 200, 429, 429, 429, 429, 429, 429]);
    assert.ok(opened.filter((o) => o.status === 429).every((o) => o.refusal.status_code === 2066));
    for (const o of opened) await o.sse?.close();
  });

  it('counts the open streams of a customer and of a chat from their indexes among 20,000 rows (each statement of the admitting function, read with auto_explain)', {
    skip: env().DATABASE_URL ? false : 'needs DATABASE_URL (PostgreSQL: plans mean nothing on PGlite)',
  }, async () => {
    const [{ name }] = rowsOf<{ name: string }>(await ctx.db.execute(sql`select current_database() as name`));
    const url = new URL(env().DATABASE_URL as string);
    url.pathname = `/${name}`;
    const logged: string[] = [];
    const raw = postgres(url.toString(), { max: 1, onnotice: (n) => logged.push(String(n.message)) });
    try {
      await raw`insert into widget_stream_instances (id) values ('plan-instance') on conflict (id) do update set seen_at = now()`;
      await raw`insert into widget_streams (id, customer, chat_id, instance_id)
          select 'plan-' || g, 'plan-customer-' || g, 'plan-chat-' || (g / 2), 'plan-instance' from generate_series(1, 20000) g`;
      await raw`analyze widget_streams`;
      await raw`load 'auto_explain'`;
      await raw`set auto_explain.log_min_duration = 0`;
      await raw`set auto_explain.log_nested_statements = on`;
      await raw`set client_min_messages = log`;
      // Seven calls: PL/pgSQL keeps its statements' plans, and after five may settle on a generic one.
      for (let k = 0; k < 7; k++) {
        // plan-chat-3 holds two streams (rows 6 and 7): both counts run, and the chat's cap refuses.
        const [{ taken }] = await raw`select take_widget_stream_slot(${`plan-new-${k}`}, ${`plan-customer-${k}`}, 'plan-chat-3',
            'plan-instance', 3, 2, 60) as taken`;
        assert.equal(taken, 2);
      }
      const counts = logged.filter((m) => m.includes('count(*)'));
      assert.equal(counts.length, 14, logged.join('\n'));
      for (const [k, plan] of counts.entries()) {
        assert.doesNotMatch(plan, /Seq Scan on widget_streams/, plan);
        assert.match(plan, k % 2 ? /widget_streams_chat_idx/ : /widget_streams_customer_idx/, plan);
      }
    } finally {
      await raw`delete from widget_streams where instance_id = 'plan-instance'`;
      await raw`delete from widget_stream_instances where id = 'plan-instance'`;
      await raw.end();
    }
  });
});
