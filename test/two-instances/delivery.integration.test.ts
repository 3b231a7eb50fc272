/**
 * Two production servers (`node scripts/start.mjs`, the build in .next) on one PostgreSQL database
 * of this test's own, with the embedded delivery engine in each: what several instances must get
 * right together. Needs PostgreSQL; builds first if the build is missing or older than the
 * sources (the first server does, as `npm start` does; CI builds before the suites).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { type Db, getDb } from '@/db/client';
import { admins, chats, deliveryAttempts, events } from '@/db/schema';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { until } from '../delivery/helpers';
import { type Receiver, startReceiver } from '../delivery/receiver';
import { describeOrSkip } from '../support/describe-or-skip';
import type { ProductionServer } from '../support/production-server';
import { createTenant, type Tenant } from '../support/tenant';
import { needsPostgres, setupTwoInstances } from '../support/two-instances';

const _ROOT = path.resolve(import.meta.dirname, '..', '..');
const RATE_LIMIT = 30;
const TOKEN_CACHE_SECONDS = 120;

type Server = ProductionServer;

/** A signed-in admin session of the tenant's account on that instance. */
async function adminCookie(server: Server, t: Tenant): Promise<string> {
  const db = await getDb();
  const [admin] = await db.select({ email: admins.email }).from(admins).where(eq(admins.accountId, t.account.id));
  const login = await fetch(`${server.base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: 'correct horse battery' }),
  });
  assert.equal(login.status, 200);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function bot(server: Server, t: Tenant, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.base}/api/v1${p}`, {
    method,
    headers: { access_token: t.token, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { status_code: number; response: any } };
}

describeOrSkip('two instances on one PostgreSQL database', needsPostgres, () => {
  let db: Db;
  let receiver: Receiver;
  let a: Server;
  let b: Server;
  const two = setupTwoInstances('two', {
    DELIVERY_ENGINE: 'embedded',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    // Long enough that a token refused within seconds was forgotten on notice, not on expiry.
    TOKEN_CACHE_SECONDS: String(TOKEN_CACHE_SECONDS),
  });

  before(async () => {
    ({ db, a, b } = two);
    receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  });

  after(async () => {
    await receiver?.close();
  });

  it('delivers the events written through both instances once each, in order', async () => {
    const t = await createTenant(db, { webhookUrl: receiver.url, subscriptions: ['chat.assigned', 'message.received'] });
    const created = await bot(a, t, 'POST', '/chats', {
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550100', name: 'Ann' },
      assignee: t.bot.user.loginId,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const chatId: string = created.body.response.chat_id;
    const texts = Array.from({ length: 10 }, (_, i) => `message ${i + 1}`);
    for (const [i, text] of texts.entries()) {
      const r = await bot(i % 2 ? b : a, t, 'POST', `/chats/${chatId}/messages`, { type: 'inbound', text });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const ofChat = () => receiver.requests.filter((r) => r.body?.chat_id === chatId);
    await until('the 11 events at the receiver', () => ofChat().length >= 11, 60_000);
    const got = ofChat();
    assert.equal(got[0].body.event_type, 'chat.assigned');
    assert.deepEqual(
      got.slice(1).map((r) => r.body.payload.messages[0].text),
      texts,
    );
    const rows = await db.select().from(events).where(eq(events.chatId, chatId)).orderBy(asc(events.seq));
    assert.deepEqual(
      got.map((r) => r.headers['webhook-id']),
      rows.map((e) => e.transactionId),
      'each event once, in seq order',
    );
    await until('every event recorded delivered', async () =>
      (await db.select().from(events).where(eq(events.chatId, chatId))).every((e) => e.status === 'delivered'),
    );
    const attempts = await db
      .select()
      .from(deliveryAttempts)
      .where(
        inArray(
          deliveryAttempts.eventId,
          rows.map((e) => e.id),
        ),
      );
    assert.equal(attempts.length, rows.length, 'one attempt per event');
  });

  it('shares the per-account rate limit: requests alternating between the instances are refused past the budget', async () => {
    const t = await createTenant(db);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) statuses.push((await bot(i % 2 ? b : a, t, 'GET', '/teams')).status);
    assert.equal(statuses.filter((s) => s === 200).length, RATE_LIMIT, statuses.join(','));
    assert.deepEqual(statuses.slice(RATE_LIMIT), Array(10).fill(429));
  });

  it('never assigns past capacity when chats are created through both instances at once', async () => {
    const t = await createTenant(db);
    const team = await createTeam(db, { accountId: t.account.id, name: 'Race', autoAssign: true });
    const members = [];
    for (const [i, capacity] of [1, 2, 1].entries()) {
      members.push(
        await createUser(db, {
          accountId: t.account.id,
          kind: 'agent',
          loginId: `two-${i}`,
          name: `Two ${i}`,
          teamIds: [team.id],
          availability: 'available',
          capacity,
        }),
      );
    }
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        bot(i % 2 ? b : a, t, 'POST', '/chats', {
          channel: 'sms',
          asset_id: t.assets.sms.id,
          customer: { destination_id: `+1555020${String(i).padStart(2, '0')}` },
          team_id: team.id,
        }),
      ),
    );
    assert.ok(
      results.every((r) => r.status === 201),
      JSON.stringify(results.filter((r) => r.status !== 201)),
    );
    const assigned = await db
      .select({ assignee: chats.assigneeId })
      .from(chats)
      .where(and(eq(chats.teamId, team.id), isNotNull(chats.assigneeId)));
    const load = new Map<number, number>();
    for (const r of assigned) load.set(r.assignee!, (load.get(r.assignee!) ?? 0) + 1);
    for (const m of members) assert.ok((load.get(m.id) ?? 0) <= m.capacity, `user ${m.id}: ${load.get(m.id)} > ${m.capacity}`);
    assert.equal(assigned.length, 4, 'every seat taken, none twice');
  });

  it('refuses on one instance a token revoked through the other, without waiting for its cache to expire', async () => {
    const t = await createTenant(db, { webhookUrl: receiver.url });
    for (let i = 0; i < 2; i++) assert.equal((await bot(b, t, 'GET', '/teams')).status, 200, 'the token checked, then from b’s cache');
    const cookie = await adminCookie(a, t);
    const rotated = await fetch(`${a.base}/api/admin/virtual-agents/${t.bot.user.id}/rotate-key`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'at_once' }),
    });
    assert.equal(rotated.status, 200, await rotated.text());
    // The revocation reaches b as a notification committed with it; b keeps tokens for
    // TOKEN_CACHE_SECONDS (120 s) otherwise, so a refusal within seconds is the notification's doing.
    const refused = await until(
      'b refuses the revoked token',
      async () => {
        const res = await bot(b, t, 'GET', '/teams');
        return res.body.status_code === 2003 ? res : null;
      },
      5_000,
    );
    assert.equal(refused.status, 400);
  });

  it('sends a redelivery clicked on one instance once', async () => {
    const t = await createTenant(db, { webhookUrl: receiver.url, subscriptions: ['chat.assigned'] });
    const created = await bot(a, t, 'POST', '/chats', {
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550300' },
      assignee: t.bot.user.loginId,
    });
    const chatId: string = created.body.response.chat_id;
    const event = await until('the event delivered', async () => {
      const [row] = await db.select().from(events).where(eq(events.chatId, chatId));
      return row?.status === 'delivered' ? row : null;
    });
    const cookie = await adminCookie(b, t);
    const redeliver = await fetch(`${b.base}/api/admin/events/${event.id}/redeliver`, { method: 'POST', headers: { cookie } });
    assert.equal(redeliver.status, 200, await redeliver.text());

    await until(
      'the redelivery recorded',
      async () => {
        const [row] = await db.select().from(events).where(eq(events.id, event.id));
        return row.status === 'delivered' && row.deliveredAt && row.deliveredAt > event.deliveredAt!;
      },
      30_000,
    );
    const attempts = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.eventId, event.id));
    assert.equal(attempts.length, 2, 'the first delivery and one redelivery');
    assert.equal(receiver.requests.filter((r) => r.headers['webhook-id'] === event.transactionId).length, 2);
  });
});
