import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { pauseEndpointEvents } from '@/lib/delivery/pause-endpoint-events';
import { rowsOf } from '@/platform/util/rows-of';
import { setupTestDatabase } from '../support/db';
import { createTenant } from '../support/tenant';
import { createBotChat } from './helpers';

describe('pausing an endpoint with a large backlog', () => {
  const ctx = setupTestDatabase();

  it('holds every pending event of the VA, batch by batch, and nothing of another VA', async () => {
    const paused = await createTenant(ctx.db);
    const other = await createTenant(ctx.db);
    const chatId = await createBotChat(paused);
    const otherChat = await createBotChat(other);
    // 2,500 more pending events for the paused VA (not a multiple of the batch), some already later
    // than the pause, and 10 for another VA.
    const insert = (t: typeof paused, chat: string, n: number, delay: string) =>
      ctx.db.execute(sql`
        insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at)
        select 'pause-' || gen_random_uuid(), ${t.account.id}, ${chat}, ${t.bot.user.id}, 'message.received', 1000 + g, '{}'::jsonb,
          now() + ${delay}::interval
        from generate_series(1, ${n}) as g`);
    await insert(paused, chatId, 2_450, '0 seconds');
    await insert(paused, chatId, 50, '2 hours');
    await insert(other, otherChat, 10, '0 seconds');
    const until = new Date(Date.now() + 3_600_000);

    const moved = await pauseEndpointEvents(ctx.db, {
      accountId: paused.account.id,
      virtualAgentId: paused.bot.user.id,
      until,
      batchSize: 400,
    });
    assert.equal(moved, 2_451, 'the pending events due before the pause ended (with the chat.assigned one)');

    const [counts] = rowsOf<{ held: number; later: number; due: number; other_due: number }>(
      await ctx.db.execute(sql`select
        count(*) filter (where virtual_agent_id = ${paused.bot.user.id} and next_attempt_at = ${until.toISOString()}::timestamptz)::int as held,
        count(*) filter (where virtual_agent_id = ${paused.bot.user.id} and next_attempt_at > ${until.toISOString()}::timestamptz)::int as later,
        count(*) filter (where virtual_agent_id = ${paused.bot.user.id} and next_attempt_at < ${until.toISOString()}::timestamptz)::int as due,
        count(*) filter (where virtual_agent_id = ${other.bot.user.id} and next_attempt_at <= now())::int as other_due
        from events where status = 'pending'`),
    );
    assert.deepEqual(
      { held: Number(counts.held), later: Number(counts.later), due: Number(counts.due), otherDue: Number(counts.other_due) },
      { held: 2_451, later: 50, due: 0, otherDue: 11 },
    );
  });
});
