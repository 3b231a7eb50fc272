/**
 * Replays through the admin API against the TypeScript example bot (examples/bot, a real webhook
 * server started in this process, signed deliveries by the embedded engine, the bot's REST calls
 * over real HTTP): the same bot twice gives no diff; the bot with its planted regression
 * (no-refund-handover) changes exactly the chats that mention a refund, at that turn. Around it
 * all, the live account's chats, events, delivery attempts, rollups, chat list, delivery stats,
 * request log and the process's Prometheus counters and gauges read the same before and after: a
 * replay reaches none of them (its webhook attempts have a counter of their own).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { count, eq, inArray } from 'drizzle-orm';
import { botApiHandler } from '@/app/api/v1/_routers';
import { type RecordingLineInput, recordingLineSchema } from '@/contracts/admin/schemas/recording';
import { accounts, botRequests, chats, deliveryAttempts, deliveryRollups, events, users } from '@/db/schema';
import { resetEnv } from '@/env';
import { startBot } from '@/examples/bot/bot';
import { stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { replayRunFinished } from '@/lib/replay/start-replay-run';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { registerScrapeGauges } from '@/platform/metrics/collect-gauges';
import { metrics } from '@/platform/metrics/registry';
import { createBotChat, tenantWithReceiver, until } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import type { ApiClient } from '../support/api-client';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { freePort } from '../support/private-cluster';
import type { Tenant } from '../support/tenant';

process.env.DELIVERY_ENGINE = 'embedded';
resetEnv();

const line = (id: string, turns: string[][], channel: RecordingLineInput['channel'] = 'api'): RecordingLineInput => ({
  format: 'va-chat-recording',
  version: 1,
  id,
  channel,
  customer: { destination_id: `cust-${id}`, name: 'Replayed customer' },
  turns: turns.map((texts) => ({ customer: texts.map((text) => ({ text })) })),
});

// Hand-written: no bot turns recorded, so the first replay is the baseline.
const RECORDING = [
  line('plain', [['hello'], ['my order is late'], ['it is order 4711'], ['thanks']]),
  line('refund', [['hello'], ['I want a refund for order 12'], ['are you there?']]),
  line('person', [['hi'], ['can I talk to a person?'], ['hello?']]),
  line('livechat', [['hi there'], ['what are your hours'], ['ok']], 'livechat'),
  line('refund-late', [['hi'], ['question'], ['question two'], ['refund please']]),
];

describe('replay against the example bot', () => {
  after(() => stopEmbeddedEngine());
  const ctx = setupTestDatabase();
  let admin: ApiClient;
  let t: Tenant;
  let receiver: Receiver;
  let server: http.Server;
  let baseUrl = '';
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    ({ t, receiver } = await tenantWithReceiver(ctx.db));
    server = http.createServer((req, res) => void serveNode(botApiHandler.core, req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    await startDelivery();
  });
  after(async () => {
    for (const close of closers) await close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await receiver.close();
  });

  /** A sandbox VA and the example bot running with its credentials. */
  async function sandboxBot(name: string, regression?: 'no-refund-handover') {
    const port = await freePort();
    const made = await admin.post('/replay/virtual-agents', { name, webhook_url: `http://127.0.0.1:${port}/webhook` });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const va = (made.body as { response: { id: number; api_key: string; signing_secret: string; login_id: string } }).response;
    const bot = await startBot({
      baseUrl,
      apiKey: va.api_key,
      signingSecret: va.signing_secret,
      loginId: va.login_id,
      port,
      handoverTeam: 'Humans',
      regression,
      log: () => {},
    });
    closers.push(bot.close);
    return va;
  }

  async function replay(vaId: number, label: string): Promise<string> {
    const created = await admin.post('/replays', { virtual_agent_id: vaId, label, settle_ms: 150, concurrency: 3 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const runId = (created.body as { response: { run_id: string } }).response.run_id;
    assert.equal((await admin.post(`/replays/${runId}/chats`, { chats: RECORDING })).status, 200);
    assert.equal((await admin.post(`/replays/${runId}/start`)).status, 200);
    await replayRunFinished(runId);
    const run = (await admin.get(`/replays/${runId}`)).body as { response: { status: string; chats_done: number; chats_failed: number } };
    assert.deepEqual([run.response.status, run.response.chats_done, run.response.chats_failed], ['done', RECORDING.length, 0]);
    return runId;
  }

  async function diff(runId: string, against: string) {
    const res = await admin.get(`/replays/${runId}/diff?against=${against}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (
      res.body as {
        response: {
          summary: {
            chats_changed: number;
            handover_changed_chats: number;
            changed: { id: string; first_changed_turn: number; changes: string[] }[];
          };
          chats: { id: string; turns: { turn: number; handover: unknown }[] }[];
        };
      }
    ).response;
  }

  /** What the live account shows: its chats, events, attempts, rollups, chat list and delivery stats. */
  async function liveState() {
    const db = ctx.db;
    const [c] = await db.select({ n: count() }).from(chats).where(eq(chats.accountId, t.account.id));
    const [e] = await db.select({ n: count() }).from(events).where(eq(events.accountId, t.account.id));
    const liveEvents = db.select({ id: events.id }).from(events).where(eq(events.accountId, t.account.id));
    const [a] = await db.select({ n: count() }).from(deliveryAttempts).where(inArray(deliveryAttempts.eventId, liveEvents));
    const rollups = await db.select().from(deliveryRollups).where(eq(deliveryRollups.accountId, t.account.id));
    const list = (await admin.get('/chats')).body as { response: { chats: unknown[] } };
    // The stats' window moves with the clock: its counts, latency, failing VAs and backlog are what must hold still.
    const { totals, latency_ms, top_failing, backlog } = (
      (await admin.get('/deliveries/stats?window=1h')).body as { response: Record<string, unknown> }
    ).response;
    const health = (await admin.get('/deliveries/virtual-agents')).body as { response: unknown[] };
    const people = await db.select({ id: users.id }).from(users).where(eq(users.accountId, t.account.id));
    const [requestLog] = await db.select({ n: count() }).from(botRequests).where(eq(botRequests.accountId, t.account.id));
    return {
      chats: c.n,
      events: e.n,
      attempts: a.n,
      rollups,
      list: list.response.chats,
      stats: { totals, latency_ms, top_failing, backlog },
      health: health.response,
      people,
      requestLog: requestLog.n,
      metrics: await liveMetrics(),
    };
  }

  /** The process's delivery counters and the scrape's backlog gauges, as Prometheus reads them. */
  async function liveMetrics() {
    registerScrapeGauges();
    const { registry } = metrics();
    const read = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values.map((v) => [v.labels, v.value]);
    const names = [
      'vachat_delivery_attempts_total',
      'vachat_delivery_attempt_duration_seconds',
      'vachat_reply_timeouts_total',
      'vachat_streams_cut_short_total',
      'vachat_delivery_backlog_events',
      'vachat_chats_waiting_on_bot',
    ];
    return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await read(n)])));
  }

  it('replays twice without a diff, flags the planted regression at its turn only, and leaves the live account untouched', async () => {
    // The live account has a chat of its own with an event, so its numbers are not all zero.
    const liveChat = await createBotChat(t);
    await until('the live chat event delivered', async () => {
      const [e] = await ctx.db.select({ status: events.status }).from(events).where(eq(events.chatId, liveChat));
      return e?.status === 'delivered';
    });
    // The bot API call that made it is logged after its answer: wait for the row, so it is not counted as the replays'.
    await until('the live chat request logged', async () => {
      const [r] = await ctx.db.select({ n: count() }).from(botRequests).where(eq(botRequests.accountId, t.account.id));
      return r.n >= 1;
    });
    const liveBefore = await liveState();

    const same = await sandboxBot('Candidate same');
    const baseline = await replay(same.id, 'baseline');
    const again = await replay(same.id, 'again');
    const noChange = await diff(again, baseline);
    assert.equal(noChange.summary.chats_changed, 0, JSON.stringify(noChange.summary));

    // The baseline handed over the refund chats and the person chat, each at the turn that asked.
    const all = (await admin.get(`/replays/${baseline}/diff?against=${again}&include=all`)).body as {
      response: { chats: { id: string; turns: { turn: number; handover: { baseline: string | null } }[] }[] };
    };
    const handovers = all.response.chats.flatMap((c) => c.turns.filter((tu) => tu.handover.baseline).map((tu) => `${c.id}@${tu.turn}`));
    assert.deepEqual(handovers.sort(), ['person@2', 'refund-late@4', 'refund@2']);

    const regressed = await sandboxBot('Candidate regressed', 'no-refund-handover');
    const candidate = await replay(regressed.id, 'candidate');
    const found = await diff(candidate, baseline);
    assert.equal(found.summary.chats_changed, 2, JSON.stringify(found.summary));
    assert.equal(found.summary.handover_changed_chats, 2);
    const byId = Object.fromEntries(found.summary.changed.map((c) => [c.id, c]));
    assert.equal(byId.refund.first_changed_turn, 2);
    assert.equal(byId['refund-late'].first_changed_turn, 4);
    assert.ok(byId.refund.changes.includes('handover'));

    // The replays' chats are in the sandbox, marked with their run.
    const [sandbox] = await ctx.db.select().from(accounts).where(eq(accounts.sandboxOfAccountId, t.account.id));
    const sandboxChats = await ctx.db.select({ run: chats.replayRunId }).from(chats).where(eq(chats.accountId, sandbox.id));
    assert.equal(sandboxChats.length, RECORDING.length * 3);
    assert.ok(sandboxChats.every((c) => c.run?.startsWith('rpl_')));
    const replayEvents = await ctx.db.select({ body: events.body }).from(events).where(eq(events.accountId, sandbox.id));
    assert.ok(
      replayEvents.length > 0 && replayEvents.every((e) => (e.body as { replay?: { run_id: string } }).replay?.run_id.startsWith('rpl_')),
    );

    const liveAfter = await liveState();
    assert.deepEqual(liveAfter, liveBefore);
    // The replays' webhooks were attempted, and counted apart.
    const replayAttempts = (await metrics().registry.getSingleMetric('vachat_replay_delivery_attempts_total')?.get())?.values ?? [];
    assert.ok(replayAttempts.reduce((n, v) => n + v.value, 0) >= RECORDING.length * 3, JSON.stringify(replayAttempts));
  });

  it('exports chats as recording lines, by IDs, tag and VA, a batch at a time, that replay as they are', async () => {
    const say = (chatId: string, type: 'inbound' | 'outbound', text: string) =>
      botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type, text } });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const chatId = await createBotChat(t);
      made.push(chatId);
      await say(chatId, 'inbound', 'hello');
      await say(chatId, 'outbound', 'Hello! How can I help?');
      await say(chatId, 'inbound', 'I want a refund');
      await say(chatId, 'inbound', 'for order 12');
      await say(chatId, 'outbound', 'Connecting you now.');
      const tagged = await botApi('PATCH', `/chats/${chatId}`, {
        token: t.token,
        headers: { team_id: String(t.botTeam.id) },
        body: { tags: [`export-${i % 2}`] },
      });
      assert.equal(tagged.status, 200, JSON.stringify(tagged.body));
      const moved = await botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.humanTeam.id } } });
      assert.equal(moved.status, 202, JSON.stringify(moved.body));
      await say(chatId, 'inbound', 'thanks, person');
    }
    const read = async (query: string) => {
      const res = await admin.get(`/replay/export?${query}`);
      assert.equal(res.status, 200, res.raw);
      assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
      return res.raw
        .split('\n')
        .filter(Boolean)
        .map((l) => recordingLineSchema.parse(JSON.parse(l)));
    };
    const byIds = await read(`chat_ids=${made.join(',')}`);
    assert.deepEqual(
      byIds.map((l) => l.id),
      made,
    );
    const [first] = byIds;
    assert.deepEqual(
      first.turns.map((turn) => [turn.customer.map((c) => c.text), turn.bot?.actions.map((a) => a.type) ?? null]),
      [
        [['hello'], ['message']],
        [
          ['I want a refund', 'for order 12'],
          ['message', 'transfer'],
        ],
        [['thanks, person'], null],
      ],
    );
    assert.deepEqual(first.turns[1].bot?.actions[1], { type: 'transfer', team: 'Humans', skill: null });
    assert.deepEqual(first.recorded_actions, ['message', 'transfer', 'close']);
    assert.deepEqual(
      (await read('tag=export-1')).map((l) => l.id),
      [made[1]],
    );
    assert.equal((await read(`virtual_agent_id=${t.bot.user.id}&limit=2`)).length, 2);
    assert.equal((await read(`chat_ids=${made[0]}&from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z`)).length, 0);
    const refused = await admin.get('/replay/export?colour=red');
    assert.equal(refused.status, 400);
  });
});
