import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { chats, events, messages, teams, virtualAgents } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('disabling a virtual agent', () => {
  const ctx = setupTestDatabase();

  async function setup(opts: { fallback?: boolean } = {}) {
    const t = await createTenant(ctx.db, { subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'] });
    const { client } = await signedInAdminOf(ctx.db, t.account.id);
    if (opts.fallback) {
      await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.humanTeam.id));
      await ctx.db
        .update(virtualAgents)
        .set({ fallbackTeamId: t.humanTeam.id, fallbackSkill: null })
        .where(eq(virtualAgents.userId, t.bot.user.id));
    }
    return { t, client };
  }
  const chatRow = async (id: string) => (await ctx.db.select().from(chats).where(eq(chats.id, id)))[0];
  const unassignedEvents = (t: Tenant, chatId: string) =>
    ctx.db
      .select({ status: events.status, body: events.body })
      .from(events)
      .where(and(eq(events.chatId, chatId), eq(events.virtualAgentId, t.bot.user.id), eq(events.eventType, 'chat.unassigned')));

  it('revokes its tokens for good: re-enabling does not revive them, a new /authorize does work', async () => {
    const { t, client } = await setup();
    assert.equal((await botApi('GET', '/teams', { token: t.token })).status, 200);
    assert.equal((await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false })).status, 200);
    assert.equal((await botApi('GET', '/teams', { token: t.token })).body.status_code, 2003);
    assert.equal((await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey } })).body.status_code, 2005);

    assert.equal((await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: true })).status, 200);
    assert.equal((await botApi('GET', '/teams', { token: t.token })).body.status_code, 2003, 'the old token stays dead');
    const fresh = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey } });
    assert.equal(fresh.status, 200);
    assert.equal((await botApi('GET', '/teams', { token: fresh.body.response.access_token })).status, 200);
  });

  it('puts its open chats back in the queue with an announcement, and tells it (held) that it lost them', async () => {
    const { t, client } = await setup();
    const open = await newChat(t, { assignee: t.bot.user.loginId });
    const closed = await newChat(t, { assignee: t.bot.user.loginId });
    await botApi('PATCH', `/chats/${closed.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { status: 'closed' },
    });

    assert.equal((await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false })).status, 200);
    const after = await chatRow(open.chat_id);
    assert.equal(after.assigneeId, null);
    assert.equal(after.status, 'queued');
    assert.equal(after.teamId, t.botTeam.id);
    const [note] = await ctx.db
      .select({ type: messages.type, body: messages.body })
      .from(messages)
      .where(eq(messages.chatId, open.chat_id))
      .orderBy(asc(messages.id))
      .then((rows) => rows.slice(-1));
    assert.equal(note.type, 'announcement');
    assert.match((note.body as { text: string }).text, /was disabled; chat back in the queue/);
    const [lost] = await unassignedEvents(t, open.chat_id);
    assert.equal(lost.status, 'pending');
    assert.equal((lost.body as { payload: { reason: string } }).payload.reason, 'requeued');
    assert.equal((await chatRow(closed.chat_id)).status, 'closed', 'a closed chat stays as it was');
    assert.equal((await unassignedEvents(t, closed.chat_id)).length, 0);
  });

  it('applies its fallback team, where auto-assign gives the chat to a ready agent', async () => {
    const { t, client } = await setup({ fallback: true });
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false })).status, 200);
    const after = await chatRow(chat.chat_id);
    assert.equal(after.teamId, t.humanTeam.id);
    assert.equal(after.assigneeId, t.agent.id);
    const [lost] = await unassignedEvents(t, chat.chat_id);
    assert.equal((lost.body as { payload: { reason: string } }).payload.reason, 'transferred');
  });

  it('leaves chats alone when a disabled VA is disabled again', async () => {
    const { t, client } = await setup();
    await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false });
    const again = await client.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false });
    assert.equal(again.status, 200);
    assert.equal(again.body.response.enabled, false);
  });
});
