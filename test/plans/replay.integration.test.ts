import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ScaleMeta } from '@/bench/scale-data';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { exportBatchQuery, exportTranscriptsQuery } from '@/lib/replay/export-recordings';
import { messagesSinceQuery, snapshotQuery } from '@/lib/replay/replay-chat';
import { replayLinesQuery } from '@/lib/replay/start-replay-run';
import { replayChatsPick, replayRunsPick } from '@/lib/retention/jobs';
import { describeOrSkip } from '../support/describe-or-skip';
import { type PlanDatabase, planDatabase } from '../support/plans';

const CHATS = 40_000;
const RUNS = 2_000;
const LINES = 100_000;
const url = env().DATABASE_URL;
const sqlOf = (q: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(q);

/**
 * The replay's queries on bench:scale's data set (40,000 chats with their messages and events),
 * with 2,000 replay runs and 100,000 recorded lines beside it and one sandbox account, ANALYZEd:
 * the recording export (a batch by keyset, filtered; its transcripts), the runner's reads (its
 * lines, the per-poll snapshot of a chat, the messages since the last), and the retention picks.
 */
describeOrSkip('replay plans on a large table', url ? false : 'needs DATABASE_URL (PostgreSQL)', () => {
  let p: PlanDatabase;
  let db: Db;
  let meta: ScaleMeta;
  let chatId: string;
  let mid: { at: Date; id: string };
  let runId: string;
  let vaId: number;

  before(async () => {
    p = await planDatabase(url as string, 'replay', {
      chats: CHATS,
      bigTables: ['chats', 'messages', 'events', 'replay_chats', 'replay_runs'],
    });
    ({ db, meta } = p);
    const [row] = await p.raw<{ id: string; created_at: Date }[]>`
      select id, created_at from chats where account_id = ${meta.accountId} order by created_at, id offset 20000 limit 1`;
    chatId = row.id;
    mid = { at: row.created_at, id: row.id };
    // A sandbox of the account, and runs with their lines (a run's lines are recording JSON).
    const [sandbox] = await p.raw<{ id: number }[]>`
      insert into accounts (name, sandbox_of_account_id) values ('plans (replay sandbox)', ${meta.accountId}) returning id`;
    const [va] = await p.raw<{ id: number }[]>`select id from users where account_id = ${meta.accountId} and login_id = ${meta.botLoginId}`;
    vaId = va.id;
    await p.raw`
      insert into replay_runs (id, account_id, sandbox_account_id, virtual_agent_id, status, chats_total, created_at, updated_at)
      select 'rpl_plan_' || g, ${meta.accountId}, ${sandbox.id}, ${va.id}, case when g % 50 = 0 then 'running' else 'done' end, ${LINES / RUNS},
        now() - (g || ' hours')::interval, now() - (g || ' hours')::interval
      from generate_series(1, ${RUNS}) g`;
    await p.raw`
      insert into replay_chats (run_id, seq, recording, status)
      select 'rpl_plan_' || (g / ${LINES / RUNS} + 1), g % ${LINES / RUNS}, '{"format":"va-chat-recording"}'::jsonb, 'done'
      from generate_series(0, ${LINES - 1}) g`;
    // One long run: its lines are read 200 at a time along the primary key.
    runId = 'rpl_plan_7';
    await p.raw`
      insert into replay_chats (run_id, seq, recording, status)
      select ${runId}, g, '{"format":"va-chat-recording"}'::jsonb, 'pending' from generate_series(${LINES / RUNS}, 20000) g`;
    await p.raw`analyze accounts, replay_runs, replay_chats`;
  });
  after(() => p?.drop());

  const exports: [string, () => Parameters<typeof exportBatchQuery>[1]['query'], boolean][] = [
    ['the first batch', () => ({}), false],
    ['a later batch', () => ({}), true],
    ['a time window', () => ({ from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() }), false],
    ['a tag', () => ({ tag: 'billing' }), false],
    ['a VA that held them', () => ({ virtual_agent_id: vaId }), false],
  ];
  for (const [label, query, later] of exports) {
    it(`reads an export batch (${label}) along chats_account_created_idx, with no sequential scan and no sort`, async () => {
      const plan = await p.explain(
        exportBatchQuery(db, { accountId: meta.accountId, query: query(), cursor: later ? mid : null, limit: 200 }),
      );
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      assert.equal(plan.sorts, 0, 'a Sort node');
      assert.ok(plan.indexes.includes('chats_account_created_idx'), plan.indexes.join(', '));
    });
  }

  it("reads an export by IDs through the primary key, and a batch's transcripts through messages_chat_idx", async () => {
    const ids = (await p.raw<{ id: string }[]>`select id from chats where account_id = ${meta.accountId} limit 200`).map((r) => r.id);
    const byIds = await p.explain(exportBatchQuery(db, { accountId: meta.accountId, query: {}, ids, cursor: null, limit: 200 }));
    assert.deepEqual(byIds.seqScans, []);
    assert.ok(byIds.indexes.includes('chats_pkey') || byIds.indexes.includes('chats_id_prefix_idx'), byIds.indexes.join(', '));
    const transcripts = await p.explain(exportTranscriptsQuery(db, ids));
    assert.deepEqual(transcripts.seqScans, []);
    assert.ok(transcripts.indexes.includes('messages_chat_idx'), transcripts.indexes.join(', '));
  });

  it("reads the runner's lines, its per-poll snapshot and the messages since the last by index", async () => {
    const lines = await p.explainAnalyze(replayLinesQuery(db, runId, 5_000));
    assert.deepEqual(lines.seqScans, [], lines.text);
    assert.equal(lines.sorts, 0, lines.text);
    assert.ok(lines.indexes.includes('replay_chats_run_id_seq_pk'), lines.text);

    const snapshot = await p.explainAnalyze(snapshotQuery(db, chatId, { sandboxId: meta.accountId, vaUserId: vaId }));
    assert.deepEqual(snapshot.seqScans, [], snapshot.text);
    // The chat by its id (its primary key or the id prefix index), its last message and its newest event for the VA.
    assert.ok(
      snapshot.indexes.some((i) => i === 'chats_pkey' || i === 'chats_id_prefix_idx'),
      snapshot.text,
    );
    for (const index of ['messages_chat_idx', 'events_chat_va_seq_idx']) assert.ok(snapshot.indexes.includes(index), snapshot.text);

    const since = await p.explain(messagesSinceQuery(db, chatId, 0));
    assert.deepEqual(since.seqScans, []);
    assert.ok(since.indexes.includes('messages_chat_idx'), since.indexes.join(', '));
  });

  it('picks replay rows past their retention by index: sandbox chats by account and creation, runs by creation', async () => {
    const before = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const chatsPick = await p.explainAnalyze(sqlOf(replayChatsPick(500, before)));
    assert.deepEqual(chatsPick.seqScans, [], chatsPick.text);
    assert.ok(chatsPick.indexes.includes('chats_account_created_idx'), chatsPick.indexes.join(', '));
    const runsPick = await p.explain(sqlOf(replayRunsPick(500, new Date(Date.now() - 1_990 * 3_600_000).toISOString())));
    assert.deepEqual(runsPick.seqScans, [], `sequential scans: ${runsPick.seqScans}`);
    assert.ok(runsPick.indexes.includes('replay_runs_created_idx'), runsPick.indexes.join(', '));
  });
});
