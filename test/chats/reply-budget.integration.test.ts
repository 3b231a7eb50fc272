import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { chats, events, replyTimeouts } from '@/db/schema';
import { sweepReplyClocks } from '@/lib/chats/sweep-reply-clocks';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe('reply budget', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  beforeEach(async () => {
    t = await createTenant(ctx.db, { subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'] });
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  const setBudget = (body: Record<string, unknown>) => admin.patch(`/virtual-agents/${t.bot.user.id}`, body);
  /** A chat the VA holds, in which the customer has just written. */
  const waiting = () =>
    newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat', messages: [{ type: 'inbound', text: 'Where is my order?' }] });
  const chatRow = async (chatId: string) => (await ctx.db.select().from(chats).where(eq(chats.id, chatId)))[0];
  const timeoutsOf = (chatId: string) => ctx.db.select().from(replyTimeouts).where(eq(replyTimeouts.chatId, chatId));

  it('is off by default, takes 5-600 s, and handover needs a fallback team', async () => {
    const va = (await admin.get(`/virtual-agents/${t.bot.user.id}`)).body.response;
    assert.deepEqual([va.reply_timeout_seconds, va.reply_timeout_action], [null, 'handover']);
    for (const seconds of [4, 601]) {
      const bad = await setBudget({ reply_timeout_seconds: seconds, reply_timeout_action: 'notify' });
      assert.deepEqual([bad.status, bad.body.status_code], [400, 2000], JSON.stringify(bad.body));
    }
    const noFallback = await setBudget({ reply_timeout_seconds: 30 });
    assert.deepEqual([noFallback.status, noFallback.body.status_code], [400, 2000]);
    assert.match(noFallback.body.description, /handover needs fallback_team_id/);
    const chat = await waiting();
    assert.equal((await chatRow(chat.chat_id)).replyDueAt, null, 'no clock while the budget is off');
    assert.notEqual((await chatRow(chat.chat_id)).awaitingReplySince, null, 'the chat is waiting on the bot all the same');
    assert.deepEqual(await sweepReplyClocks(ctx.db, { now: later(700) }), []);
  });

  it('hands a slow bot’s chat to the fallback team: chat.unassigned, an announcement, a record', async () => {
    const ok = await setBudget({ reply_timeout_seconds: 5, reply_timeout_action: 'handover', fallback_team_id: t.humanTeam.id });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual([ok.body.response.reply_timeout_seconds, ok.body.response.reply_timeout_action], [5, 'handover']);
    const chat = await waiting();
    assert.deepEqual(await sweepReplyClocks(ctx.db, { now: later(3) }), [], 'not yet');
    const [done] = await sweepReplyClocks(ctx.db, { now: later(6) });
    assert.deepEqual([done?.chatId, done?.action], [chat.chat_id, 'handover']);
    const after = (await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token })).body.response;
    assert.deepEqual([after.team_id, after.assignee, after.status], [t.humanTeam.id, null, 'queued']);
    assert.match(after.messages.at(-1).text, /did not reply within its reply budget of 5 s/);
    const unassigned = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chat.chat_id), eq(events.eventType, 'chat.unassigned')));
    assert.equal(unassigned.length, 1);
    assert.equal(unassigned[0].virtualAgentId, t.bot.user.id);
    const recorded = await timeoutsOf(chat.chat_id);
    assert.deepEqual(
      recorded.map((r) => [r.action, r.virtualAgentId]),
      [['handover', t.bot.user.id]],
    );
    assert.ok(recorded[0].waitedSeconds >= 5);
    assert.deepEqual(await sweepReplyClocks(ctx.db, { now: later(60) }), [], 'acted on once');
    const late = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Sorry!' } });
    assert.deepEqual([late.status, late.body.status_code], [403, 2043]);
  });

  it('does not hand over a bot that keeps typing, nor one that replied; typing pauses the clock', async () => {
    await setBudget({ reply_timeout_seconds: 5, fallback_team_id: t.humanTeam.id });
    const typingChat = await waiting();
    const typed = await botApi('PUT', `/chats/${typingChat.chat_id}/typing`, {
      token: t.token,
      body: { on: true, ttl_seconds: 60, status_text: 'Thinking…' },
    });
    assert.equal(typed.status, 200);
    assert.deepEqual(await sweepReplyClocks(ctx.db, { now: later(30) }), [], 'paused while typing');
    const due = (await chatRow(typingChat.chat_id)).replyDueAt as Date;
    assert.ok(due.getTime() > later(60).getTime(), 'the typing time was added to the deadline');

    const answered = await waiting();
    await botApi('POST', `/chats/${answered.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'On its way.' } });
    const row = await chatRow(answered.chat_id);
    assert.deepEqual([row.replyDueAt, row.awaitingReplySince], [null, null]);

    const streamed = await waiting();
    await botApi('POST', `/chats/${streamed.chat_id}/messages`, { token: t.token, body: { type: 'outbound', stream: true } });
    assert.equal((await chatRow(streamed.chat_id)).replyDueAt, null, 'an open stream stops the clock');

    // Typing switched off resumes the clock where it stood.
    const paused = await waiting();
    await botApi('PUT', `/chats/${paused.chat_id}/typing`, { token: t.token, body: { on: true, ttl_seconds: 60 } });
    await botApi('PUT', `/chats/${paused.chat_id}/typing`, { token: t.token, body: { on: false } });
    const resumed = (await chatRow(paused.chat_id)).replyDueAt as Date;
    assert.ok(resumed.getTime() <= later(5).getTime(), 'the unused typing time was taken back');

    const swept = await sweepReplyClocks(ctx.db, { now: later(8) });
    assert.deepEqual(
      swept.map((s) => s.chatId),
      [paused.chat_id],
    );
    assert.equal((await chatRow(typingChat.chat_id)).assigneeId, t.bot.user.id, 'the typing bot keeps its chat');
  });

  it('with notify, counts once and leaves the chat with the VA, still shown as waiting', async () => {
    await setBudget({ reply_timeout_seconds: 10, reply_timeout_action: 'notify' });
    const chat = await waiting();
    const [done] = await sweepReplyClocks(ctx.db, { now: later(11) });
    assert.deepEqual([done?.chatId, done?.action], [chat.chat_id, 'notify']);
    assert.deepEqual(await sweepReplyClocks(ctx.db, { now: later(30) }), []);
    const row = await chatRow(chat.chat_id);
    assert.equal(row.assigneeId, t.bot.user.id);
    assert.notEqual(row.awaitingReplySince, null);
    assert.deepEqual(
      (await timeoutsOf(chat.chat_id)).map((r) => r.action),
      ['notify'],
    );
    // The next customer message, after the VA replied, starts a new wait.
    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Here.' } });
    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'inbound', text: 'Thanks, and?' } });
    assert.notEqual((await chatRow(chat.chat_id)).replyDueAt, null);
  });
});
