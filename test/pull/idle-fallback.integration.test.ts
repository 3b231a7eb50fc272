import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { botApiHandler } from '@/app/api/v1/_routers';
import { eventCursors, events } from '@/db/schema';
import { handOverIdlePullChats } from '@/lib/pull/hand-over-idle-pull';
import { refreshOpenStreams } from '@/lib/pull/stream-slots';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { getVirtualAgentOrFail } from '@/lib/virtual-agents/virtual-agent-view';
import { createBotChat, sendInbound, until } from '../delivery/helpers';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { readSse } from '../support/sse';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();
const IDLE = 3600;

/** A pull VA with the tenant's human team as fallback, holding one chat with a customer message waiting. */
async function pullVaWithWaitingChat() {
  const t = await createTenant(ctx.db, { subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'] });
  await updateVirtualAgent(ctx.db, {
    accountId: t.account.id,
    id: t.bot.user.id,
    patch: { delivery_mode: 'pull', fallback_team_id: t.humanTeam.id, fallback_skill: 'billing' },
  });
  const chat = await createBotChat(t);
  await sendInbound(t, chat, 'is anyone there?');
  return { t, chat };
}

/** Time passes for the VA: its events, registration, switch to pull and last read are two hours old. */
async function twoHoursPass(t: Tenant) {
  const va = t.bot.user.id;
  await ctx.db.execute(sql`update events set created_at = created_at - interval '2 hours' where virtual_agent_id = ${va}`);
  await ctx.db.execute(sql`update virtual_agents set created_at = created_at - interval '2 hours' where user_id = ${va}`);
  await ctx.db.execute(sql`
    update event_cursors set last_read_at = last_read_at - interval '2 hours', pull_since = pull_since - interval '2 hours'
    where virtual_agent_id = ${va}`);
}

const chatOf = async (t: Tenant, chat: string) => (await botApi('GET', `/chats/${chat}`, { token: t.token })).body.response;

describe('bot-down fallback of pull VAs', () => {
  it('hands the chats of a pull VA that stopped reading to its fallback; a VA holding a stream open or long-polling keeps its chats', async () => {
    const idle = await pullVaWithWaitingChat();
    const streaming = await pullVaWithWaitingChat();
    const polling = await pullVaWithWaitingChat();
    const switchedLately = await pullVaWithWaitingChat();

    // `streaming` opens a stream and keeps it open: it reads its two events and waits for more.
    const res = await botApiHandler(
      new NextRequest('http://localhost/api/v1/events/stream', { headers: new Headers({ access_token: streaming.t.token }) }),
    );
    assert.equal(res.status, 200);
    const stream = readSse(res.body as ReadableStream<Uint8Array>);
    assert.equal((await stream.events(2)).length, 2);
    // `polling` read once, long ago.
    assert.equal((await botApi('GET', '/events', { token: polling.t.token })).status, 200);

    for (const { t } of [idle, streaming, polling, switchedLately]) await twoHoursPass(t);
    // Two hours on: the stream is still open (its instance refreshes it, as every 15 s), `polling`
    // reads again, and `switchedLately` was only now switched to pull (webhook, then pull again).
    await refreshOpenStreams();
    assert.equal((await botApi('GET', '/events', { token: polling.t.token })).status, 200);
    for (const mode of ['webhook', 'pull'] as const) {
      await updateVirtualAgent(ctx.db, {
        accountId: switchedLately.t.account.id,
        id: switchedLately.t.bot.user.id,
        patch: { delivery_mode: mode },
      });
    }

    const moved = await handOverIdlePullChats(ctx.db, { idleSeconds: IDLE });
    const ours = new Set([idle, streaming, polling, switchedLately].map((x) => x.t.bot.user.id));
    assert.deepEqual(
      moved.filter((m) => ours.has(m.virtualAgentId)),
      [{ chatId: idle.chat, virtualAgentId: idle.t.bot.user.id }],
      'only the idle VA loses its chat',
    );

    const handed = await chatOf(idle.t, idle.chat);
    assert.equal(handed.team_id, idle.t.humanTeam.id);
    assert.equal(handed.skill, 'billing');
    assert.notEqual(handed.assignee, idle.t.bot.user.loginId);
    const note = handed.messages.at(-1);
    assert.equal(note.type, 'announcement');
    assert.match(note.text, /has not read its events for over 3600 s .*chat transferred to Humans \/ billing/);
    // The idle VA's waiting events of the chat are superseded; it reads chat.unassigned when it comes back.
    const left = await ctx.db.select({ type: events.eventType, status: events.status }).from(events).where(eq(events.chatId, idle.chat));
    assert.deepEqual(
      left.map((e) => e.status),
      ['superseded', 'superseded', 'pending'],
    );
    assert.equal(left[2].type, 'chat.unassigned');
    // (Polled: on a shared PostgreSQL server another client's open transaction may hold it back a moment.)
    await until('chat.unassigned readable by the idle VA', async () => {
      const back = (await botApi('GET', '/events', { token: idle.t.token })).body.response.events as { body: string }[];
      return JSON.parse(back.at(-1)?.body ?? '{}').event_type === 'chat.unassigned';
    });

    for (const kept of [streaming, polling, switchedLately]) {
      assert.equal((await chatOf(kept.t, kept.chat)).assignee, kept.t.bot.user.loginId);
    }
    // The open stream still serves: the refresh moved its VA's last read to now.
    const [cursor] = await ctx.db
      .select({ at: eventCursors.lastReadAt })
      .from(eventCursors)
      .where(inArray(eventCursors.virtualAgentId, [streaming.t.bot.user.id]));
    assert.ok(cursor.at && Date.now() - cursor.at.getTime() < 60_000, 'the open stream keeps last_read_at fresh');
    // The admin API (the VA page) shows it: one open stream, read just now, nothing acknowledged.
    const view = await getVirtualAgentOrFail(ctx.db, { accountId: streaming.t.account.id, id: streaming.t.bot.user.id });
    assert.equal(view.event_cursor.open_streams, 1);
    assert.ok(view.event_cursor.last_read_at && Date.now() - Date.parse(view.event_cursor.last_read_at) < 60_000);
    assert.equal(view.event_cursor.acknowledged_cursor, null);
    await stream.close();

    // A second sweep finds nothing more to do.
    assert.deepEqual(
      (await handOverIdlePullChats(ctx.db, { idleSeconds: IDLE })).filter((m) => ours.has(m.virtualAgentId)),
      [],
    );
  });

  it('leaves a pull VA without a fallback team, and a webhook VA, alone', async () => {
    const noFallback = await createTenant(ctx.db);
    await updateVirtualAgent(ctx.db, { accountId: noFallback.account.id, id: noFallback.bot.user.id, patch: { delivery_mode: 'pull' } });
    const chatA = await createBotChat(noFallback);
    const webhook = await createTenant(ctx.db);
    await updateVirtualAgent(ctx.db, {
      accountId: webhook.account.id,
      id: webhook.bot.user.id,
      patch: { fallback_team_id: webhook.humanTeam.id },
    });
    const chatB = await createBotChat(webhook);
    for (const t of [noFallback, webhook]) await twoHoursPass(t);
    const moved = await handOverIdlePullChats(ctx.db, { idleSeconds: IDLE });
    assert.equal(moved.filter((m) => m.chatId === chatA || m.chatId === chatB).length, 0);
  });
});
