import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { env } from '@/env';
import { mineQuery, teamQueueQuery } from '@/lib/agent/list-workspace';
import { transcriptQuery } from '@/lib/agent/open-agent-chat';
import { widgetChatQuery } from '@/lib/widget/widget-chat-view';
import { describeOrSkip } from '../support/describe-or-skip';
import { type PlanDatabase, planDatabase } from '../support/plans';

const CHATS = 40_000;
const url = env().DATABASE_URL;

// The data set of bench:scale (a tenant whose people's team has thousands of waiting chats and
// whose agents hold thousands each), on PostgreSQL: the plans only mean something there.
describeOrSkip('agent workspace plans on a large table', url ? false : 'needs DATABASE_URL (PostgreSQL)', () => {
  let p: PlanDatabase;
  let agent: { userId: number; teamId: number };
  let chatId: string;

  before(async () => {
    // One customer a chat, as list-plans builds it: the planner then reads customers by key, not whole.
    p = await planDatabase(url as string, 'agent_plans', {
      chats: CHATS,
      customers: CHATS,
      bigTables: ['chats', 'messages', 'events', 'customers'],
    });
    const [row] = await p.raw<{ userId: number; teamId: number }[]>`
      select u.id as "userId", m.team_id as "teamId" from users u join team_memberships m on m.user_id = u.id
      where u.login_id = 'bench-agent-0'`;
    agent = row;
    const [chat] = await p.raw<{ id: string }[]>`select id from chats where assignee_id = ${agent.userId} and status = 'picked' limit 1`;
    chatId = chat.id;
    const [{ n }] = await p.raw<{ n: number }[]>`
      select count(*)::int as n from chats where team_id = ${agent.teamId} and status = 'queued' and assignee_id is null`;
    assert.ok(n > 500, `a long queue to read from (${n})`);
  });

  after(() => p?.drop());

  // Each read is one index's rows for one key (a team's waiting chats, a person's chats in one
  // status), never a scan of the table. The planner may still sort such a set when it estimates it
  // small (it did for a person's hundred chats on hold), so the order is not asserted here; the
  // reads are timed on the 1 M data set by bench:scale.
  it("reads a team's queue from chats_queue_idx, never the whole table", async () => {
    const plan = await p.explain(teamQueueQuery(p.db, { teamId: agent.teamId }));
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    assert.ok(plan.indexes.includes('chats_queue_idx'), plan.indexes.join(', '));
  });

  for (const status of ['picked', 'onhold'] as const) {
    it(`reads a person's ${status} chats from the assignee index, the last message from the chat's`, async () => {
      const plan = await p.explain(mineQuery(p.db, { userId: agent.userId, status }));
      assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
      assert.ok(plan.indexes.includes('chats_assignee_status_list_idx'), plan.indexes.join(', '));
      assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
    });
  }

  it("reads a waiting customer's place in the queue from chats_queue_idx, never the whole queue's table", async () => {
    const [last] = await p.raw<{ id: string; accountId: number; assetId: number; destinationId: string }[]>`
      select c.id, c.account_id as "accountId", c.asset_id as "assetId", cu.destination_id as "destinationId"
      from chats c join customers cu on cu.id = c.customer_id
      where c.team_id = ${agent.teamId} and c.status = 'queued' and c.assignee_id is null order by c.queued_at desc, c.id desc limit 1`;
    const visitor = { accountId: last.accountId, assetId: last.assetId, livechatId: last.destinationId };
    const plan = await p.explain(widgetChatQuery(p.db, { visitor, chatId: last.id }));
    assert.deepEqual(plan.seqScans, [], `sequential scans: ${plan.seqScans}`);
    assert.ok(plan.indexes.includes('chats_queue_idx'), plan.indexes.join(', '));
  });

  it("reads a chat's transcript from the end of messages_chat_idx", async () => {
    const plan = await p.explain(transcriptQuery(p.db, { chatId }));
    // The planner may sort a short transcript (its estimate is a few messages a chat) after the
    // index read, as for the bot API's transcript page; it reads that one chat's messages only.
    assert.deepEqual(plan.seqScans, []);
    assert.ok(plan.indexes.includes('messages_chat_idx'), plan.indexes.join(', '));
  });
});
