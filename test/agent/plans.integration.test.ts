import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import postgres from 'postgres';
import { buildDataSet } from '@/bench/scale-data';
import { type Db, openPostgres } from '@/db/client';
import { env } from '@/env';
import { mineQuery, teamQueueQuery } from '@/lib/agent/list-workspace';
import { transcriptQuery } from '@/lib/agent/open-agent-chat';
import { describeOrSkip } from '../support/describe-or-skip';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

const BIG_TABLES = new Set(['chats', 'messages', 'events', 'customers']);
const CHATS = 40_000;

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

function readPlan(plan: PlanNode) {
  const all = nodes(plan);
  return {
    seqScans: all.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.has(n['Relation Name'] ?? '')).map((n) => n['Relation Name']),
    indexes: all.map((n) => n['Index Name']).filter((x): x is string => Boolean(x)),
  };
}

const url = env().DATABASE_URL;

// The data set of bench:scale (a tenant whose people's team has thousands of waiting chats and
// whose agents hold thousands each), on PostgreSQL: the plans only mean something there.
describeOrSkip('agent workspace plans on a large table', url ? false : 'needs DATABASE_URL (PostgreSQL)', () => {
  let admin: postgres.Sql;
  let raw: postgres.Sql;
  let db: Db;
  let close: () => Promise<void>;
  let name: string;
  let agent: { userId: number; teamId: number };
  let chatId: string;

  before(async () => {
    admin = postgres(url as string, { max: 1, onnotice: () => {} });
    name = `va_test_agent_plans_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const dbUrl = new URL(url as string);
    dbUrl.pathname = `/${name}`;
    // One customer a chat, as list-plans builds it: the planner then reads customers by key, not whole.
    await buildDataSet(dbUrl.toString(), CHATS, () => {}, { customers: CHATS });
    const handle = await openPostgres(dbUrl.toString(), { migrate: false });
    db = handle.db;
    close = handle.close;
    raw = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
    const [row] = await raw<{ userId: number; teamId: number }[]>`
      select u.id as "userId", m.team_id as "teamId" from users u join team_memberships m on m.user_id = u.id
      where u.login_id = 'bench-agent-0'`;
    agent = row;
    const [chat] = await raw<{ id: string }[]>`select id from chats where assignee_id = ${agent.userId} and status = 'picked' limit 1`;
    chatId = chat.id;
    const [{ n }] = await raw<{ n: number }[]>`
      select count(*)::int as n from chats where team_id = ${agent.teamId} and status = 'queued' and assignee_id is null`;
    assert.ok(n > 500, `a long queue to read from (${n})`);
  });

  after(async () => {
    await raw?.end();
    await close?.();
    await admin?.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  async function explain(query: { sql: string; params: unknown[] }) {
    const [row] = await raw.unsafe(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.params as never[]);
    return readPlan((row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan);
  }

  // Each read is one index's rows for one key (a team's waiting chats, a person's chats in one
  // status), never a scan of the table. The planner may still sort such a set when it estimates it
  // small (it did for a person's hundred chats on hold), so the order is not asserted here; the
  // reads are timed on the 1 M data set by bench:scale.
  it("reads a team's queue from chats_queue_idx, never the whole table", async () => {
    const plan = await explain(teamQueueQuery(db, { teamId: agent.teamId }).toSQL());
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    assert.ok(plan.indexes.includes('chats_queue_idx'), plan.indexes.join(', '));
  });

  for (const status of ['picked', 'onhold'] as const) {
    it(`reads a person's ${status} chats from the assignee index, the last message from the chat's`, async () => {
      const plan = await explain(mineQuery(db, { userId: agent.userId, status }).toSQL());
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      assert.ok(plan.indexes.includes('chats_assignee_status_list_idx'), plan.indexes.join(', '));
      assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
    });
  }

  it("reads a chat's transcript from the end of messages_chat_idx", async () => {
    const plan = await explain(transcriptQuery(db, { chatId }).toSQL());
    // The planner may sort a short transcript (its estimate is a few messages a chat) after the
    // index read, as for the bot API's transcript page; it reads that one chat's messages only.
    assert.deepEqual(plan.seqScans, []);
    assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
  });
});
