import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import type { ScaleMeta } from '@/bench/scale-data';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { env } from '@/env';
import { batchAppendQuery } from '@/lib/chats/append-batch';
import { lastCustomerMessageId } from '@/lib/chats/append-message';
import { idleStreamsQuery } from '@/lib/chats/cut-streams';
import { openChatCountOf, openChatLoads } from '@/lib/chats/open-chats';
import { plainOutboundBatchQuery, plainOutboundQuery } from '@/lib/chats/plain-outbound';
import { dueReplyClocksQuery } from '@/lib/chats/sweep-reply-clocks';
import { insertEventSql } from '@/lib/events/enqueue-event';
import { releaseOpenTurnSql } from '@/lib/events/held-events';
import { idlePullChatsQuery } from '@/lib/pull/hand-over-idle-pull';
import { eventPageSql } from '@/lib/pull/read-event-page';
import { latestReplyTimeoutsQuery, waitingOnVaQuery } from '@/lib/virtual-agents/list-va-replies';
import { widgetMessagesQuery } from '@/lib/widget/list-widget-messages';
import { widgetChatResumeQuery } from '@/lib/widget/widget-chat-view';
import { type PlanDatabase, planDatabase } from '../support/plans';

const CHATS = 20_000;
const url = env().DATABASE_URL;

// The queries the reply features add on growing tables (chats, messages, reply_timeouts), read with
// EXPLAIN on a database with tens of thousands of rows: each must read an index, not the table.
describe('reply feature plans on large tables', { skip: url ? false : 'needs DATABASE_URL (PostgreSQL)' }, () => {
  let p: PlanDatabase;
  let raw: postgres.Sql;
  let db: Db;
  let meta: ScaleMeta;
  let vaId: number;

  before(async () => {
    // Every sequential scan counts here, small tables' too (one case allows one, and says why).
    p = await planDatabase(url as string, 'reply_plans', { chats: CHATS, customers: CHATS });
    ({ raw, db, meta } = p);
    const [va] = await raw<{ id: number }[]>`select id from users where login_id = ${meta.botLoginId} and account_id = ${meta.accountId}`;
    vaId = va.id;
    // A few chats wait on the bot (one in a hundred), a few streams are open, and the VA has
    // many recorded timeouts, as a busy tenant would.
    await raw`update chats set awaiting_reply_since = now() - interval '5 seconds', reply_due_at = now() + (random() * 60) * interval '1 second'
      where ctid = any(array(select ctid from chats tablesample bernoulli (1)))`;
    await raw`update messages set stream_state = 'open', stream_seq = 0, stream_ends = '{0}', stream_touched_at = now() - (random() * 60) * interval '1 second'
      where ctid = any(array(select ctid from messages tablesample bernoulli (1)))`;
    await raw`insert into reply_timeouts (account_id, virtual_agent_id, chat_id, action, waited_seconds, at)
      select ${meta.accountId}, ${vaId}, id, 'notify', 30, now() - (random() * 30) * interval '1 day' from chats`;
    // A pull VA's backlog: 100,000 events waiting (parked out of the due range), all written in the
    // last minutes, as for a bot that reads but lags; the idle-pull sweep asks for older ones.
    await raw`
      insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at, created_at)
      select 'plan-' || g, ${meta.accountId}, c.id, ${vaId}, 'message.received', 100000 + g, '{}'::jsonb,
        now() + interval '100 years', now() - (random() * 600) * interval '1 second'
      from generate_series(1, 100000) g
      join lateral (select id from chats offset (g % 1000) limit 1) c on true`;
    await raw`vacuum analyze events`;
    await raw`vacuum analyze chats`;
    await raw`vacuum analyze messages`;
    await raw`vacuum analyze reply_timeouts`;
  });

  after(() => p?.drop());
  const explain = (query: Parameters<PlanDatabase['explain']>[0]) => p.explain(query);

  const cases: [string, () => { sql: string; params: unknown[] }, string][] = [
    [
      'the reply-budget sweep (chats past their deadline)',
      () => dueReplyClocksQuery(db, { now: new Date(), limit: 200 }).toSQL(),
      'chats_reply_due_idx',
    ],
    [
      'the idle-stream sweep (open streams untouched for long)',
      () => idleStreamsQuery(db, { before: new Date(Date.now() - 30_000), limit: 500 }).toSQL(),
      'messages_open_stream_idx',
    ],
    [
      "the VA page's chats waiting on the bot",
      () => waitingOnVaQuery(db, { virtualAgentId: vaId, limit: 20 }).toSQL(),
      'chats_awaiting_reply_idx',
    ],
    [
      "the VA page's latest reply timeouts",
      () => latestReplyTimeoutsQuery(db, { virtualAgentId: vaId, limit: 20 }).toSQL(),
      'reply_timeouts_va_idx',
    ],
  ];
  for (const [label, query, index] of cases) {
    it(`reads ${label} from its index`, async () => {
      const plan = await explain(query());
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      assert.ok(plan.indexes.includes(index), `${index} not among ${plan.indexes.join(', ')}`);
    });
  }

  it("counts a VA's open chats (the seats auto-assign reads under its lock on the VA) from their range of the assignee index, not its closed history", async () => {
    const [{ closed }] = await raw<
      { closed: number }[]
    >`select count(*)::int as closed from chats where assignee_id = ${vaId} and status = 'closed'`;
    assert.ok(closed > 1_000, `the VA holds ${closed} closed chats`);
    const plan = await p.explainAnalyze(openChatLoads(db, [vaId]).toSQL());
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    assert.match(plan.text, /Index Cond: .*status = ANY/, plan.text);
    assert.doesNotMatch(plan.text, /Rows Removed by Filter/, plan.text);
  });

  it("counts a VA's open chats in auto-assign's pick without a lock (a subquery per candidate) from the same range", async () => {
    const plan = await p.explainAnalyze(
      db
        .select({ id: users.id, load: openChatCountOf(db, users.id) })
        .from(users)
        .where(eq(users.id, vaId))
        .toSQL(),
    );
    // The plan database's users are a handful of rows, read whole; chats is the table that grows.
    assert.ok(!plan.seqScans.includes('chats'), `sequential scans: ${plan.seqScans}`);
    const count = plan.text.slice(plan.text.indexOf('SubPlan'));
    assert.match(count, /Index Cond: .*assignee_id = users\.id.*status = ANY/, plan.text);
    assert.doesNotMatch(count, /Rows Removed by Filter/, plan.text);
  });

  it("reads a widget's wake (a chat's messages after its cursor, open streams included) from the transcript index", async () => {
    const [m] = await raw<{ chat_id: string; id: number }[]>`select chat_id, id from messages where stream_state = 'open' limit 1`;
    for (const after of [0, m.id - 1]) {
      const q = widgetMessagesQuery(db).toSQL();
      const query = { sql: q.sql, params: fillPlaceholders(q.params, { chatId: m.chat_id, after, limit: 100 }) };
      // Prepared once per process: the generic plan PostgreSQL may settle on must read the index too.
      for (const plan of [await explain(query), await p.explainGeneric(query)]) {
        assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
        assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
      }
    }
  });

  it("reads a resuming widget stream's chat with its newest message id (the cursor's check) by the chat's key and the end of the transcript index", async () => {
    const [c] = await raw<{ id: string; accountId: number; assetId: number; destinationId: string }[]>`
      select c.id, c.account_id as "accountId", c.asset_id as "assetId", cu.destination_id as "destinationId"
      from chats c join customers cu on cu.id = c.customer_id order by c.id desc limit 1`;
    const q = widgetChatResumeQuery(db).toSQL();
    const values = { chatId: c.id, accountId: c.accountId, assetId: c.assetId, livechatId: c.destinationId };
    const query = { sql: q.sql, params: fillPlaceholders(q.params, values) };
    // Prepared once per process: the generic plan PostgreSQL may settle on must read the indexes too.
    // users and approvals are a handful of rows here, read whole at the planner's right (the
    // workspace's plan suite reads the same chat fields on its own data); chats and messages grow.
    for (const plan of [await explain(query), await p.explainGeneric(query)]) {
      const big = plan.seqScans.filter((t) => ['chats', 'messages', 'customers'].includes(t));
      assert.deepEqual(big, [], `sequential scans: ${plan.seqScans}`);
      assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
    }
  });

  it("reads a livechat message's predecessor (the widget's hint, in the insert's RETURNING) from the end of the transcript index", async () => {
    const [m] = await raw<{ chat_id: string }[]>`select chat_id from messages order by id desc limit 1`;
    const plan = await explain(
      db
        .select({ prev: lastCustomerMessageId(m.chat_id) })
        .from(sql`(values (1)) one`)
        .toSQL(),
    );
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
  });

  it('writes a plain outbound message in one statement that reads the chat by its key and the hint from the transcript index', async () => {
    const [m] = await raw<{ chat_id: string }[]>`select chat_id from messages order by id desc limit 1`;
    const q = plainOutboundQuery(db).toSQL();
    const values = {
      chatId: m.chat_id,
      accountId: meta.accountId,
      actor: vaId,
      transid: 'plan',
      body: '{"text":"x"}',
      authorLoginId: null,
    };
    const at = new Date().toISOString();
    const plan = await explain({ sql: q.sql, params: fillPlaceholders(q.params, { ...values, sentAt: at, at }) });
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    // The chat locked, then updated, each found by its id through an index (the planner may take the
    // id prefix index, which serves equality too, over the key).
    assert.equal(plan.indexes.filter((i) => i.startsWith('chats_')).length, 2, plan.indexes.join(', '));
    // The hint is read by a function (a snapshot of its own): its body, EXPLAINed as it stands.
    const [fn] = await raw<{ body: string }[]>`select prosrc as body from pg_proc where proname = 'last_visible_message_before'`;
    await raw.unsafe(`prepare last_visible(text, bigint) as ${fn.body}`);
    const [row] = await raw.unsafe(`explain (format json) execute last_visible('${m.chat_id}', 9000000000000000000)`);
    await raw.unsafe('deallocate last_visible');
    const text = JSON.stringify(row['QUERY PLAN']);
    assert.ok(text.includes('messages_chat_idx'), text);
    assert.ok(!text.includes('Seq Scan'), text);
  });

  it('writes the plain outbound messages of many chats in one statement, each chat locked and touched by its key', async () => {
    const some = await raw<{ id: string }[]>`select id from chats order by id desc limit 50`;
    const at = new Date().toISOString();
    const items = some.map((c, k) => ({
      k,
      chat_id: c.id,
      account_id: meta.accountId,
      actor: k % 2 ? vaId : null,
      transid: `plan-${k}`,
      body: { text: 'x' },
      author_login_id: null,
      sent_at: at,
      at,
    }));
    const q = plainOutboundBatchQuery(db).toSQL();
    const query = { sql: q.sql, params: fillPlaceholders(q.params, { items: JSON.stringify(items) }) };
    // Prepared once per process: its generic plan must read the indexes too.
    for (const plan of [await explain(query), await p.explainGeneric(query)]) {
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      // The chats locked, then updated, each found by its id through an index (the key or the id
      // prefix index, which serves equality too).
      assert.equal(plan.indexes.filter((i) => i.startsWith('chats_')).length, 2, plan.indexes.join(', '));
    }
  });

  it("appends the chunks of many streams in one statement, each message and its chat's holder found by an index", async () => {
    const open = await raw<{ transid: string; chat_id: string }[]>`
      select transid, chat_id from messages where stream_state = 'open' limit 50`;
    assert.equal(open.length, 50);
    const items = open.map((m, k) => ({
      k,
      transid: m.transid,
      chat_id: m.chat_id,
      account_id: meta.accountId,
      after: 0,
      text: ' chunk',
      length: 6,
      actor: k % 2 ? vaId : null,
    }));
    const q = batchAppendQuery(db).toSQL();
    const query = { sql: q.sql, params: fillPlaceholders(q.params, { items: JSON.stringify(items) }) };
    // Prepared once per process: its generic plan must read the indexes too.
    for (const plan of [await explain(query), await p.explainGeneric(query)]) {
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      // Each message by its transid, or by its chat among the chat's open streams (the partial index).
      assert.ok(
        plan.indexes.some((i) => i === 'messages_transid_unique' || i === 'messages_open_stream_chat_idx'),
        plan.indexes.join(', '),
      );
    }
  });

  it("reads the bot-down fallback of pull VAs' waiting events from the VA's range of events_account_pending_idx", async () => {
    const plan = await explain(
      idlePullChatsQuery(db, { accountId: meta.accountId, vaUserId: vaId, before: new Date(Date.now() - 3_600_000), limit: 200 }).toSQL(),
    );
    // The growing part is the VA's waiting events (100,000 here): never scanned whole, nor every
    // VA's pending events. The chats they name are joined by id; on this 20,000-chat table the
    // planner may hash them from a sequential scan (seen here, estimating thousands of chats).
    assert.ok(!plan.seqScans.includes('events'), `sequential scans: ${plan.seqScans}`);
    assert.ok(plan.indexes.includes('events_account_pending_idx'), plan.indexes.join(', '));
    assert.ok(!plan.indexes.includes('events_due_idx'), plan.indexes.join(', '));
  });

  it("reads a pulled page (GET /events, the stream) from the VA's range of events_va_stream_idx, the secrets once", async () => {
    const q = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(eventPageSql);
    const values = { accountId: meta.accountId, vaUserId: vaId, afterXid: 0, afterId: 0, limit: 500 };
    const query = { sql: q.sql, params: fillPlaceholders(q.params, values) };
    // Prepared once per process: the generic plan PostgreSQL may settle on must read the index too.
    for (const plan of [await explain(query), await p.explainGeneric(query)]) {
      // virtual_agents (one row per bot, a handful here) may be read whole for the two secrets; they
      // are InitPlans, read once per statement, not per event.
      assert.deepEqual(
        plan.seqScans.filter((t) => t !== 'virtual_agents'),
        [],
        `sequential scans: ${plan.seqScans}`,
      );
      assert.ok(plan.indexes.includes('events_va_stream_idx'), plan.indexes.join(', '));
    }
  });

  it("writes an event (its seq from the chat's key, its place from the chat's latest event for the VA) and releases an open turn from events_chat_va_seq_idx", async () => {
    const [c] = await raw<{ id: string }[]>`select chat_id as id from events where virtual_agent_id = ${vaId} limit 1`;
    const dialect = (db as unknown as { dialect: PgDialect }).dialect;
    // Each as planned for its values and as the generic plan PostgreSQL may settle on: both are
    // statements prepared once per process.
    const plansOf = async (query: SQL, values: Record<string, unknown>) => {
      const q = dialect.sqlToQuery(query);
      const filled = { sql: q.sql, params: fillPlaceholders(q.params, values) };
      return [await explain(filled), await p.explainGeneric(filled)];
    };
    const inserts = await plansOf(insertEventSql, {
      transactionId: 'plan-event',
      accountId: meta.accountId,
      chatId: c.id,
      vaUserId: vaId,
      eventType: 'message.received',
      body: '{}',
      held: false,
      parked: false,
      turnId: null,
      heldUntil: null,
      heldCapAt: null,
      turnClosedBy: null,
    });
    for (const insert of inserts) {
      assert.deepEqual(insert.seqScans, [], `sequential scans: ${insert.seqScans}`);
      // The chat by its id: its key, or the id's prefix index (either reads the one row).
      assert.ok(
        insert.indexes.some((i) => i === 'chats_pkey' || i === 'chats_id_prefix_idx'),
        insert.indexes.join(', '),
      );
      assert.ok(insert.indexes.includes('events_chat_va_seq_idx'), insert.indexes.join(', '));
    }
    for (const release of await plansOf(releaseOpenTurnSql, { chatId: c.id, vaUserId: vaId, reason: 'event' })) {
      // virtual_agents (a handful of rows) may be read whole for the VA's delivery mode.
      assert.deepEqual(
        release.seqScans.filter((t) => t !== 'virtual_agents'),
        [],
        `sequential scans: ${release.seqScans}`,
      );
      assert.ok(release.indexes.includes('events_chat_va_seq_idx'), release.indexes.join(', '));
    }
  });

  it("closes a chat's open streams through the open-stream index, and a chunk finds its message by transid", async () => {
    const [m] = await raw<
      { chat_id: string; transid: string }[]
    >`select chat_id, transid from messages where stream_state = 'open' limit 1`;
    const cut = await explain({
      sql: `update messages set stream_state = 'cut_short' where chat_id = $1 and stream_state = 'open'`,
      params: [m.chat_id],
    });
    assert.deepEqual(cut.seqScans, []);
    assert.ok(cut.indexes.includes('messages_open_stream_chat_idx'), cut.indexes.join(', '));
    const chunk = await explain({
      sql: `update messages set stream_seq = stream_seq + 1 where transid = $1 and chat_id = $2 and stream_state = 'open' and stream_seq = 0`,
      params: [m.transid, m.chat_id],
    });
    assert.deepEqual(chunk.seqScans, []);
    assert.ok(
      chunk.indexes.some((i) => i === 'messages_transid_unique' || i === 'messages_open_stream_chat_idx'),
      chunk.indexes.join(', '),
    );
  });
});
