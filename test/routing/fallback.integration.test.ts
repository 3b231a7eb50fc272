import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { events, virtualAgents } from '@/db/schema';
import { applyBotDownFallback } from '@/lib/chats/apply-bot-down-fallback';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('bot-down fallback', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  async function failAssignedEvent(chatId: string) {
    const [ev] = await ctx.db
      .update(events)
      .set({ status: 'failed', attemptCount: 7, lastError: 'HTTP 503', failedAt: new Date() })
      .where(and(eq(events.chatId, chatId), eq(events.eventType, 'chat.assigned')))
      .returning();
    return ev.id;
  }

  it('does nothing for a VA without a fallback team', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal(await applyBotDownFallback(ctx.db, { eventId: await failAssignedEvent(chat.chat_id) }), false);
    const after = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(after.body.response.assignee, t.bot.user.loginId);
  });

  it('moves the chat to the fallback team and skill with an announcement saying why', async () => {
    await ctx.db
      .update(virtualAgents)
      .set({ fallbackTeamId: t.humanTeam.id, fallbackSkill: 'billing' })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal(await applyBotDownFallback(ctx.db, { eventId: await failAssignedEvent(chat.chat_id) }), true);
    const after = (await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token })).body.response;
    assert.equal(after.team_id, t.humanTeam.id);
    assert.equal(after.skill, 'billing');
    assert.equal(after.assignee, null);
    assert.equal(after.status, 'queued');
    const note = after.messages.at(-1);
    assert.equal(note.type, 'announcement');
    assert.match(
      note.text,
      /did not accept chat\.assigned .* after 7 attempts \(last error: HTTP 503\); chat transferred to Humans \/ billing/,
    );
  });

  it('leaves a chat alone once the VA no longer holds it', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const eventId = await failAssignedEvent(chat.chat_id);
    await botApi('PATCH', `/chats/${chat.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { assignee: t.agent.loginId },
    });
    assert.equal(await applyBotDownFallback(ctx.db, { eventId }), false);
  });
});
