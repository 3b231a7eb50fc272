import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type postgres from 'postgres';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { chatsOfAccount } from '@/lib/request-log/known-chats';
import { botRequestsPage } from '@/lib/request-log/list-bot-requests';
import { traceLookups } from '@/lib/traces/find-trace';
import { encodeCursor } from '@/platform/util/cursor';
import { describeOrSkip } from '../support/describe-or-skip';
import { type PlanDatabase, planDatabase } from '../support/plans';

const CHATS = 40_000;
const REQUESTS = 200_000;
const KEYS = 50_000;
const BUSY = 20_000;

// Plans mean something only on PostgreSQL with tables big enough for the planner to care: this
// suite runs in the PostgreSQL pass (DATABASE_URL set) and is skipped on PGlite.
const url = env().DATABASE_URL;

describeOrSkip('trace look-up and request log plans on large tables', url ? false : 'needs DATABASE_URL (PostgreSQL)', () => {
  let pdb: PlanDatabase;
  let raw: postgres.Sql;
  let db: Db;
  let accountId: number;
  let vaId: number;
  const ids: Record<string, string> = {};
  let cursor: string;
  let at: Date;

  before(async () => {
    // CHATS chats with 3 messages and an event each (bench/scale-data.ts), then the request log
    // and idempotency keys with generate_series, then ANALYZE.
    pdb = await planDatabase(url as string, 'trace', {
      chats: CHATS,
      bigTables: ['chats', 'messages', 'events', 'bot_requests', 'idempotency_keys'],
    });
    ({ raw, db } = pdb);
    accountId = pdb.meta.accountId;
    const { meta } = pdb;
    [{ id: vaId }] = await raw<{ id: number }[]>`select id from users where account_id = ${accountId} and login_id = ${meta.botLoginId}`;
    // Each row's trxid is a version 7 UUID made from its time, as the server makes them.
    await raw`
      insert into bot_requests (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code,
        description, trxid, latency_ms, idempotency_key)
      select ${accountId}, ${vaId}, to_timestamp(ms / 1000.0),
        (array['getChat','updateChat','postMessage','listChats'])[1 + g % 4], 'PATCH', '/api/v1/chats/' || c.id,
        case when g % 4 = 3 then null else c.id end, case when g % 10 = 0 then 404 else 200 end,
        case when g % 10 = 0 then 2031 else 4304 end, 'Chat details retrieved successfully',
        (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' || substr(r, 7, 12))::uuid,
        (random() * 50)::int, case when g % 3 = 0 then 'key-' || g end
      from (
        select g, ms, lpad(to_hex(ms), 12, '0') as h, md5(g::text) as r
        from (select g, (extract(epoch from now() - interval '7 days' * random()) * 1000)::bigint as ms from generate_series(1, ${REQUESTS}) g) t
      ) g
      join (select id, row_number() over () - 1 as n from chats where account_id = ${accountId}) c on c.n = g.g % ${CHATS}`;
    await raw`
      insert into idempotency_keys (account_id, key, fingerprint, http_status, response)
      select ${accountId}, 'stored-' || g, 'f', 200, jsonb_build_object('chat_id', 'x') from generate_series(1, ${KEYS}) g`;
    await raw`vacuum analyze`;
    // A chat a bot polls, with one Idempotency-Key sent again and again: BUSY calls logged since
    // the last ANALYZE, so the planner still takes them for an average chat's or key's few.
    const [busy] = await raw<{ id: string }[]>`select id from chats offset 30000 limit 1`;
    await raw`
      insert into bot_requests (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code,
        description, trxid, latency_ms, idempotency_key)
      select ${accountId}, ${vaId}, to_timestamp(ms / 1000.0), 'getChat', 'GET', '/api/v1/chats/' || ${busy.id}, ${busy.id}, 200, 4304,
        'Chat details retrieved successfully',
        (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' || substr(r, 7, 12))::uuid, 3,
        'busy-key'
      from (select lpad(to_hex(ms), 12, '0') as h, md5(ms::text || 'busy') as r, ms
        from (select (extract(epoch from now()) * 1000)::bigint - g * 60 as ms from generate_series(1, ${BUSY}) g) t) g`;
    const [chat] = await raw<{ id: string; alias_id: string }[]>`select id, alias_id from chats offset 20000 limit 1`;
    const [message] = await raw<{ transid: string }[]>`select transid from messages offset 50000 limit 1`;
    const [event] = await raw<{ transaction_id: string }[]>`select transaction_id from events offset 30000 limit 1`;
    const [request] = await raw<{ trxid: string; at: Date }[]>`select trxid, at from bot_requests offset 150000 limit 1`;
    Object.assign(ids, {
      chat: chat.id,
      alias: chat.alias_id,
      message: message.transid,
      event: event.transaction_id,
      request: request.trxid,
      key: 'key-99999',
      storedKey: 'stored-4242',
      busyChat: busy.id,
      busyKey: 'busy-key',
    });
    cursor = encodeCursor([request.trxid]);
    at = request.at;
  });

  after(() => pdb?.drop());

  const plan = (query: { toSQL: () => { sql: string; params: unknown[] } }) => pdb.explainAnalyze(query);

  const lookups: [string, () => string, string][] = [
    // Either of the chat ID's btree indexes finds it in one probe (the prefix one also serves `like 'abc%'`).
    ['chat ID', () => ids.chat, 'chats_pkey|chats_id_prefix_idx'],
    ['message transid', () => ids.message, 'messages_transid_unique'],
    ['event transaction_id', () => ids.event, 'events_transaction_id_unique'],
    ['REST trxid', () => ids.request, 'bot_requests_pkey'],
    ['Idempotency-Key in the log', () => ids.key, 'bot_requests_key_idx'],
    ['Idempotency-Key a bot reused', () => ids.busyKey, 'bot_requests_key_idx'],
    ['Idempotency-Key stored', () => ids.storedKey, 'idempotency_keys_account_id_key_pk'],
    ['alias ID', () => ids.alias, 'chats_account_alias_idx'],
  ];
  const which: Record<string, keyof ReturnType<typeof traceLookups>> = {
    'chat ID': 'chat',
    'message transid': 'message',
    'event transaction_id': 'event',
    'REST trxid': 'request',
    'Idempotency-Key in the log': 'keyedRequests',
    'Idempotency-Key a bot reused': 'keyedRequests',
    'Idempotency-Key stored': 'idempotencyKey',
    'alias ID': 'alias',
  };

  for (const [label, id, index] of lookups) {
    it(`looks up a ${label} through ${index}`, async (t) => {
      const query = traceLookups(db, { accountId, id: id() })[which[label]];
      assert.ok(query, `${label} is looked up`);
      const p = await plan(query);
      t.diagnostic(`${label}:\n${p.text}`);
      assert.deepEqual(p.seqScans, [], p.text);
      assert.ok(
        p.indexes.some((used) => index.split('|').includes(used)),
        p.text,
      );
      if (which[label] === 'keyedRequests') assert.equal(p.sorts, 0, `the index gives the order: ${p.text}`);
    });
  }

  it("checks a logged call's chat IDs against the account's chats through a chat ID index", async (t) => {
    const p = await plan(chatsOfAccount(db, { accountId, ids: [ids.chat, crypto.randomUUID()] }));
    t.diagnostic(`chats of the account:\n${p.text}`);
    assert.deepEqual(p.seqScans, [], p.text);
    assert.ok(
      p.indexes.some((used) => ['chats_pkey', 'chats_id_prefix_idx'].includes(used)),
      p.text,
    );
  });

  const pages: [string, () => Parameters<typeof botRequestsPage>[1]['query'], string][] = [
    ['a VA, newest first', () => ({ virtual_agent_id: vaId }), 'bot_requests_pkey'],
    ['a VA, next page', () => ({ virtual_agent_id: vaId, cursor }), 'bot_requests_pkey'],
    [
      'a VA, an hour long ago',
      () => ({ virtual_agent_id: vaId, since: new Date(at.getTime() - 3_600_000).toISOString(), until: at.toISOString() }),
      'bot_requests_pkey',
    ],
    [
      'a VA, failures an hour long ago',
      () => ({
        virtual_agent_id: vaId,
        outcome: 'failure',
        since: new Date(at.getTime() - 3_600_000).toISOString(),
        until: at.toISOString(),
      }),
      'bot_requests_va_failures_idx',
    ],
    ['a VA, by status_code', () => ({ virtual_agent_id: vaId, status_code: 2031 }), 'bot_requests_va_failures_idx'],
    ['a VA, failures', () => ({ virtual_agent_id: vaId, outcome: 'failure' }), 'bot_requests_va_failures_idx'],
    ['a chat', () => ({ chat_id: ids.chat }), 'bot_requests_chat_idx'],
    ['a busy chat', () => ({ chat_id: ids.busyChat }), 'bot_requests_chat_idx'],
    ['a trxid', () => ({ trxid: ids.request }), 'bot_requests_pkey'],
  ];
  for (const [label, query, index] of pages) {
    it(`pages the request log of ${label} through ${index}`, async (t) => {
      const p = await plan(botRequestsPage(db, { accountId, query: query() }));
      t.diagnostic(`${label}:\n${p.text}`);
      assert.deepEqual(p.seqScans, [], p.text);
      assert.ok(p.indexes.includes(index), p.text);
      if (label !== 'a trxid') assert.equal(p.sorts, 0, `the index gives the order: ${p.text}`);
      assert.ok(!/Rows Removed by Filter: \d{3,}/.test(p.text), `the page starts at the cursor, not after filtering: ${p.text}`);
    });
  }
});
