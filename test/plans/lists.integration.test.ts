import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ScaleMeta } from '@/bench/scale-data';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { matchingChatIds, NARROW_SEARCH_LIMIT, SURE_NARROW_SEARCH, searchCondition } from '@/lib/admin-chats/search-chats';
import { type ChatFilters, fewTagged, listChatsQuery } from '@/lib/chats/list-chats';
import { transcriptPageQuery } from '@/lib/chats/list-messages';
import { encodeCursor } from '@/platform/util/cursor';
import { describeOrSkip } from '../support/describe-or-skip';
import { type PlanDatabase, planDatabase } from '../support/plans';

const CHATS = 40_000;

// The plans only mean something on PostgreSQL with a table big enough for the planner to care:
// this suite runs in the PostgreSQL pass (DATABASE_URL set) and is skipped on PGlite.
const url = env().DATABASE_URL;

describeOrSkip('list, search and transcript plans on a large table', url ? false : 'needs DATABASE_URL (PostgreSQL)', () => {
  let p: PlanDatabase;
  let db: Db;
  let meta: ScaleMeta;
  let cursor: string;
  let chatId: string;

  before(async () => {
    // CHATS chats, 3 messages and an event each, one customer a chat.
    p = await planDatabase(url as string, 'plans', {
      chats: CHATS,
      customers: CHATS,
      bigTables: ['chats', 'messages', 'events', 'customers'],
    });
    ({ db, meta } = p);
    const [mid] = await p.raw<{ id: string; updated_at: Date }[]>`
      select id, updated_at from chats where account_id = ${meta.accountId} order by updated_at desc, id desc offset 1000 limit 1`;
    cursor = encodeCursor([mid.updated_at.toISOString(), mid.id]);
    chatId = mid.id;
  });

  after(() => p?.drop());

  const lists: [string, () => ChatFilters][] = [
    ['newest page', () => ({})],
    ['chats assigned to the bot (assignee and status)', () => ({ assignee: meta.botLoginId, status: 'picked' })],
    ['assignee alone', () => ({ assignee: meta.botLoginId })],
    ['status queued', () => ({ status: 'queued' })],
    ['status closed, next page', () => ({ status: 'closed', cursor })],
    ['tag billing', () => ({ tag: 'billing' })],
    ['channel', () => ({ channel: 'email' })],
    ['team', () => ({ teamId: 1 })],
    ['next page', () => ({ cursor })],
    ['updated since an hour ago', () => ({ updatedSince: new Date(Date.now() - 3_600_000).toISOString() })],
  ];
  for (const [label, filters] of lists) {
    it(`reads the ${label} from an index, in index order, with no sort`, async () => {
      const plan = await p.explain(listChatsQuery(db, { accountId: meta.accountId, filters: filters() }));
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      assert.equal(plan.sorts, 0, 'a Sort node');
      assert.ok(
        plan.indexes.some((i) => i.startsWith('chats_') && i.endsWith('list_idx')),
        `no list index among ${plan.indexes.join(', ')}`,
      );
    });
  }

  it('reads a rare or absent tag through the tags index and sorts its chats, and walks the list for a common one', async () => {
    // A tag nobody has: walking the list newest first would check every chat of the account (at a
    // million chats, past the statement timeout). A short walk finds no page, a count finds no
    // chats, and the tags index serves it.
    for (const tag of ['no-such-tag', 'billing']) {
      const options = { accountId: meta.accountId, filters: { tag } };
      const few = await fewTagged(db, options);
      assert.equal(few, tag !== 'billing', tag);
      const plan = await p.explain(listChatsQuery(db, { ...options, few }));
      assert.deepEqual(plan.seqScans, [], `${tag}: sequential scans: ${plan.seqScans}`);
      if (few) assert.ok(plan.indexes.includes('chats_tags_idx') && !plan.indexes.includes('chats_list_idx'), plan.indexes.join(', '));
      else assert.ok(plan.indexes.includes('chats_list_idx'), plan.indexes.join(', '));
    }
  });

  it('reads a transcript page through the chat’s message index', async () => {
    // The planner may sort a short transcript (its estimate is a few messages a chat) after the
    // index read, but it reads that one chat's messages only.
    const plan = await p.explain(transcriptPageQuery(db, { chatId, after: 0, pageSize: 50 }));
    assert.deepEqual(plan.seqScans, []);
    assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
  });

  for (const [label, q] of [
    ['a customer’s full name', () => 'Grace Smith 1006'],
    ['an alias part', () => 'alias-1234'],
    ['a chat ID prefix', () => chatId.slice(0, 8)],
    // 100 of the 40,000 customers (a part 1,000 share is 2.5 % of this table: reading them all is then rightly cheaper).
    ['a destination part', () => '+1555000123'],
  ] as const) {
    it(`finds chats by ${label} through indexes only, then sorts no more than the matches`, async () => {
      const probe = await p.explain(new PgDialect().sqlToQuery(matchingChatIds(meta.accountId, q(), NARROW_SEARCH_LIMIT + 1)));
      assert.deepEqual(probe.seqScans, [], `sequential scans finding the matches: ${probe.seqScans}`);
      const search = await searchCondition(db, { accountId: meta.accountId, q: q() });
      assert.equal(search.few, true);
      const plan = await p.explain(listChatsQuery(db, { accountId: meta.accountId, filters: {}, ...search }));
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      // Read by key and sorted: a walk of the list index checking each row against the IDs costs
      // rows in proportion to the table (the walk a term shared by a hundred customers took).
      assert.ok(!plan.indexes.includes('chats_list_idx'), `walks the list index: ${plan.indexes.join(', ')}`);
    });
  }

  it('walks the list index for a broad term (many matches) with no sort', async () => {
    // Every customer's destination starts so: far past NARROW_SEARCH_LIMIT.
    const search = await searchCondition(db, { accountId: meta.accountId, q: '+1555000' });
    assert.equal(search.few, false);
    const plan = await p.explain(listChatsQuery(db, { accountId: meta.accountId, filters: {}, ...search }));
    assert.deepEqual(plan.seqScans, []);
    assert.equal(plan.sorts, 0);
    assert.ok(plan.indexes.includes('chats_list_idx'));
  });

  // How many chats `matchingChatIds` finds for a term, counted up to NARROW_SEARCH_LIMIT + 1.
  const matchCount = async (q: string) => {
    const query = new PgDialect().sqlToQuery(matchingChatIds(meta.accountId, q, NARROW_SEARCH_LIMIT + 1));
    return (await p.raw.unsafe(query.sql, query.params as never[])).length;
  };

  it('walks the list for a term between the sure-narrow and narrow limits that the newest chats hold a page of', async () => {
    // A surname of one customer in ten (one chat each): 4,000 matches, a page within the newest few hundred chats.
    const n = await matchCount('Smith');
    assert.ok(n > SURE_NARROW_SEARCH && n <= NARROW_SEARCH_LIMIT, `${n} matches`);
    const search = await searchCondition(db, { accountId: meta.accountId, q: 'Smith' });
    assert.equal(search.few, false, 'walked, not read by ID');
    // With a filter that no newest chat meets, the same term is read by ID.
    const noneAmongNewest = await searchCondition(db, { accountId: meta.accountId, q: 'Smith', filters: { tag: 'no-such-tag' } });
    assert.equal(noneAmongNewest.few, true);
  });

  it('reads by ID a term between the sure-narrow and narrow limits found only among the oldest chats', async () => {
    const name = `Oldname${randomBytes(3).toString('hex')}`;
    await p.raw`
      update customers cu set name = ${name} || ' ' || cu.id
      from (select customer_id from chats where account_id = ${meta.accountId} order by updated_at, id limit ${SURE_NARROW_SEARCH + 500}) old
      where cu.id = old.customer_id`;
    assert.equal(await matchCount(name), SURE_NARROW_SEARCH + 500);
    const search = await searchCondition(db, { accountId: meta.accountId, q: name });
    assert.equal(search.few, true, 'the newest chats hold none of them: read by ID and sorted');
    const plan = await p.explain(listChatsQuery(db, { accountId: meta.accountId, filters: {}, ...search }));
    assert.ok(!plan.indexes.includes('chats_list_idx'), `walks the list index: ${plan.indexes.join(', ')}`);
  });

  it('takes a term found in more customers than a narrow search reads as broad, without reading their chats', async () => {
    const name = `Broadname${randomBytes(3).toString('hex')}`;
    await p.raw`
      insert into customers (account_id, channel, destination_id, name)
      select ${meta.accountId}, 'sms', '+1999' || lpad(g::text, 7, '0'), ${name} || ' ' || g
      from generate_series(1, ${NARROW_SEARCH_LIMIT + 1}) g`;
    const [marker] = await p.raw.unsafe(
      new PgDialect().sqlToQuery(matchingChatIds(meta.accountId, name, NARROW_SEARCH_LIMIT + 1)).sql,
      new PgDialect().sqlToQuery(matchingChatIds(meta.accountId, name, NARROW_SEARCH_LIMIT + 1)).params as never[],
    );
    assert.equal(marker.id, null, 'one null ID: broad');
    const also = new PgDialect().sqlToQuery((await searchCondition(db, { accountId: meta.accountId, q: name })).also);
    assert.ok(!also.sql.includes('any('), `the list's own walk, not an ID array: ${also.sql}`);
  });
});
