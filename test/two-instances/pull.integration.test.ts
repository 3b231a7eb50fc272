/**
 * Two production servers (`node scripts/start.mjs`, the build in .next) on one PostgreSQL database
 * of this test's own: an event committed through instance A reaches a stream held on instance B
 * by the cross-instance wake-up (platform/realtime), and the stream limit counts both instances' streams.
 * Needs PostgreSQL and the build (run `npm run build` first; the first server builds if it is stale).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Db } from '@/db/client';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { until } from '../delivery/helpers';
import type { ProductionServer } from '../support/production-server';
import { readSse } from '../support/sse';
import { createTenant, type Tenant } from '../support/tenant';
import { needsPostgres, setupTwoInstances } from '../support/two-instances';

describe('pulled events across two instances', { skip: needsPostgres }, () => {
  let db: Db;
  let a: ProductionServer;
  let b: ProductionServer;
  // The delivery engine's idle poll is far longer than this test: an arrival can only come from the wake-up.
  const two = setupTwoInstances('pull2', { DELIVERY_ENGINE: 'embedded' });
  before(() => {
    ({ db, a, b } = two);
  });

  const stream = (server: ProductionServer, t: Tenant, headers: Record<string, string> = {}) =>
    fetch(`${server.base}/api/v1/events/stream`, { headers: { access_token: t.token, ...headers } });

  it('an event committed through A arrives on a stream held by B; B resumes a stream cut by its shutdown on A', async () => {
    const t = await createTenant(db);
    await updateVirtualAgent(db, { accountId: t.account.id, id: t.bot.user.id, patch: { delivery_mode: 'pull', webhook_url: null } });
    const res = await stream(b, t);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const sse = readSse(res.body!);
    const created = await fetch(`${a.base}/api/v1/chats`, {
      method: 'POST',
      headers: { access_token: t.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'sms',
        asset_id: t.assets.sms.id,
        customer: { destination_id: '+15550100', name: 'Ann' },
        assignee: t.bot.user.loginId,
      }),
    });
    assert.equal(created.status, 201);
    const framesBefore = sse.frames.length;
    const chatId = ((await created.json()) as { response: { chat_id: string } }).response.chat_id;
    const [first] = await sse.events(1);
    assert.equal(first.event, 'chat.assigned');
    // B re-reads on its own only with a keep-alive (every 10 s): none came before the event, so the wake brought it.
    const between = sse.frames.slice(framesBefore, sse.frames.indexOf(first));
    assert.deepEqual(
      between.filter((f) => f.comment === 'keep-alive'),
      [],
      'arrived by the wake-up, not by the keep-alive re-read',
    );
    assert.equal(JSON.parse(JSON.parse(first.data!).body).chat_id, chatId);

    // Stream limit over both instances: 1 open on B, 4 more on A, the 6th (on either) refused.
    const more = [];
    for (let i = 0; i < 4; i++) {
      const r = await stream(a, t);
      assert.equal(r.status, 200);
      more.push(readSse(r.body!));
    }
    const sixth = await stream(b, t);
    assert.equal(sixth.status, 429);
    assert.equal(((await sixth.json()) as { status_code: number }).status_code, 2062);
    for (const s of more) await s.close();

    // B shuts down: its stream ends cleanly, and the client resumes on A from its last id.
    b.child.kill('SIGTERM');
    await sse.toEnd();
    assert.equal(sse.ended, true);
    const msg = await fetch(`${a.base}/api/v1/chats/${chatId}/messages`, {
      method: 'POST',
      headers: { access_token: t.token, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'inbound', text: 'after the restart' }),
    });
    assert.equal(msg.status, 201);
    const resumed = await until('a slot on A', async () => {
      const r = await stream(a, t, { 'last-event-id': first.id! });
      return r.status === 200 ? r : null;
    });
    const again = readSse(resumed.body!);
    const [next] = await again.events(1);
    assert.equal(JSON.parse(JSON.parse(next.data!).body).payload.messages[0].text, 'after the restart', 'no gap, no repeat');
    await again.close();
  });
});
