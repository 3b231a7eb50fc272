/**
 * The caps on open widget streams (WIDGET_STREAMS_PER_CUSTOMER, WIDGET_STREAMS_PER_CHAT): refused
 * with 2066 in the envelope past either, given back when a stream ends, counted from the shared
 * table (rows another instance holds count; rows of a dead instance lapse), and exact under
 * concurrent opens.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { teams } from '@/db/schema';
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

    // A second chat of the same customer: its cap is free, the customer's has one left (3).
    await closeChat(first);
    const second = await startChat(v.token, 'second chat');
    assert.notEqual(second, first);
    const b1 = await open(second, v.token);
    assert.equal(b1.status, 200);
    const b2 = await open(second, v.token);
    assert.equal(b2.status, 429, 'the customer holds 3 streams');
    assert.equal(b2.refusal.status_code, 2066);

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

  it('counts streams held by other instances, and not those of an instance that stopped refreshing them', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = await startChat(v.token, 'counted everywhere');
    const customer = `${t.assets.livechat.id}:${v.livechatId}`;
    // Another instance holds one, fresh; a dead one left one two minutes old.
    await ctx.db.execute(sql`insert into widget_streams (id, customer, chat_id) values ('other-instance', ${customer}, ${chatId})`);
    await ctx.db.execute(
      sql`insert into widget_streams (id, customer, chat_id, seen_at) values ('dead-instance', ${customer}, ${chatId}, now() - interval '2 minutes')`,
    );
    const mine = await open(chatId, v.token);
    assert.equal(mine.status, 200);
    const over = await open(chatId, v.token);
    assert.equal(over.status, 429, "the other instance's stream counts; the dead one does not");
    assert.equal(over.refusal.status_code, 2066);
    // This instance's refresh keeps its own row alive and deletes the dead instance's.
    await refreshWidgetStreams();
    assert.equal(await rows(`id = 'dead-instance'`), 0);
    assert.equal(await rows(`id = 'other-instance'`), 1);
    await mine.sse!.close();
    await ctx.db.execute(sql`delete from widget_streams where id = 'other-instance'`);
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
});
