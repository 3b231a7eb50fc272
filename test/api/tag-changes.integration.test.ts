import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { chats, events } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// PATCH /chats/{id} with `add_tags` / `remove_tags`: a change to some tags, applied under the chat's lock.
describe('PATCH /chats/{id} with add_tags and remove_tags', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('adds and removes tags, keeping the others and their order, each tag once', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, tags: ['a', 'b', 'c'] });
    const res = await patchChat(t, chat.chat_id, { add_tags: ['d', 'a', 'd'], remove_tags: ['b', 'not-there'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status_code, 4304);
    assert.deepEqual(res.body.response.tag, ['a', 'c', 'd']);
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(read.body.response.tag, ['a', 'c', 'd']);
    const only = await patchChat(t, chat.chat_id, { remove_tags: ['a'] });
    assert.deepEqual(only.body.response.tag, ['c', 'd']);
  });

  it('loses no tag when many writers add at once', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, tags: ['start'] });
    const wanted = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const answers = await Promise.all(wanted.map((tag) => patchChat(t, chat.chat_id, { add_tags: [tag] })));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    assert.deepEqual([...row.tags].sort(), ['start', ...wanted].sort());
  });

  it('refuses tags together with add_tags or remove_tags, and a tag in both lists (2017), changing nothing', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, tags: ['keep'] });
    const eventsBefore = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    for (const body of [
      { tags: ['x'], add_tags: ['y'] },
      { tags: ['x'], remove_tags: ['keep'] },
      { add_tags: ['y'], remove_tags: ['y'] },
    ]) {
      const res = await patchChat(t, chat.chat_id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.status_code, 2017);
      assert.match(res.body.description, /^Conflicting tag changes/);
      assert.ok(res.body.response.errors.length > 0);
    }
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    assert.deepEqual(row.tags, ['keep']);
    assert.equal((await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id))).length, eventsBefore.length);
  });

  it('refuses adding past 50 tags (2000) and keeps the tags as they were', async () => {
    const forty = Array.from({ length: 45 }, (_, i) => `t${i}`);
    const chat = await newChat(t, { assignee: t.bot.user.loginId, tags: forty });
    const res = await patchChat(t, chat.chat_id, { add_tags: ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2000);
    assert.equal(res.body.response.errors[0].field, 'add_tags');
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    assert.deepEqual(row.tags, forty);
  });

  it('holds the same rules as any change: 2043 on a chat the VA does not hold, 2031 in another team', async () => {
    const chat = await newChat(t, { tags: ['x'] });
    const res = await patchChat(t, chat.chat_id, { add_tags: ['y'] });
    assert.equal(res.status, 403);
    assert.equal(res.body.status_code, 2043);
    const held = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await patchChat(t, held.chat_id, { remove_tags: ['x'] }, t.humanTeam.id)).body.status_code, 2031);
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, chat.chat_id));
    assert.deepEqual(row.tags, ['x']);
  });
});
