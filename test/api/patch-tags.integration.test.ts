import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { chats, events, users } from '@/db/schema';
import { updateChat } from '@/lib/chats/update-chat';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// PATCH /chats/{id} with only `tags` takes a one-statement path (lib/chats/update-chat.ts); these
// pin that it answers and behaves exactly as the full path does.
describe('PATCH /chats/{id} with tags only', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('answers the full chat, the same as a read, with the tags replaced and de-duplicated', async () => {
    const chat = await newChat(t, {
      assignee: t.bot.user.loginId,
      tags: ['old'],
      messages: [
        { type: 'inbound', text: 'hi' },
        { type: 'outbound', text: 'hello' },
      ],
    });
    const res = await patchChat(t, chat.chat_id, { tags: ['b', 'a', 'b'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status_code, 4304);
    assert.deepEqual(res.body.response.tag, ['b', 'a']);
    assert.ok(res.body.response.updated_at > chat.updated_at);
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(res.body.response, read.body.response);
    assert.equal(res.body.response.messages.length, 2);
    assert.equal(res.body.response.status, 'picked');
    assert.equal(res.body.response.assignee, t.bot.user.loginId);
  });

  it('changes nothing but tags and updated_at, and writes no event', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const before = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    const eventsBefore = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    await patchChat(t, chat.chat_id, { tags: [] });
    const after = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    const eventsAfter = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    assert.deepEqual({ ...after[0], tags: undefined, updatedAt: undefined }, { ...before[0], tags: undefined, updatedAt: undefined });
    assert.deepEqual(after[0].tags, []);
    assert.equal(eventsAfter.length, eventsBefore.length);
  });

  it('refuses the wrong team header as the full path does: 2010 unknown team, 2031 another team', async () => {
    const chat = await newChat(t);
    assert.equal((await patchChat(t, chat.chat_id, { tags: ['x'] }, 987654)).body.status_code, 2010);
    assert.equal((await patchChat(t, chat.chat_id, { tags: ['x'] }, t.humanTeam.id)).body.status_code, 2031);
    assert.equal((await patchChat(t, '00000000-0000-0000-0000-000000000000', { tags: ['x'] })).body.status_code, 2031);
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(read.body.response.tag, []);
  });

  it('refuses a VA the tags of a chat it does not hold (2043), as the full path does', async () => {
    const chat = await newChat(t);
    const res = await patchChat(t, chat.chat_id, { tags: ['x'] });
    assert.equal(res.status, 403);
    assert.equal(res.body.status_code, 2043);
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(read.body.response.tag, []);
  });

  it('still offers a queued, unassigned chat to auto-assign (a change by the service, not a VA)', async () => {
    const desk = await createTeam(ctx.db, { accountId: t.account.id, name: 'Tag desk', autoAssign: true, skillNames: [] });
    const agent = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'tag-desk-agent',
      name: 'Tag Desk Agent',
      teamIds: [desk.id],
      availability: 'unavailable',
      capacity: 1,
    });
    const chat = await newChat(t, { team_id: desk.id });
    assert.equal(chat.status, 'queued');
    assert.equal(chat.assignee, null);
    // Available now, without anything offering it the queue: only the PATCH's auto-assign can.
    await ctx.db.update(users).set({ availability: 'available' }).where(eq(users.id, agent.id));
    const res = await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      teamId: desk.id,
      patch: { tags: ['waiting'] },
      actorUserId: null,
    });
    assert.deepEqual(res.tag, ['waiting']);
    assert.equal(res.assignee, 'tag-desk-agent');
    assert.equal(res.status, 'picked');
  });
});
