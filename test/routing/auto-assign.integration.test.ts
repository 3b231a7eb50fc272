import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { chats, events, routingRules, skills, userSkills } from '@/db/schema';
import { transferChat } from '@/lib/chats/transfer-chat';
import { updateChat } from '@/lib/chats/update-chat';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { updateUser } from '@/lib/users/update-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('auto-assign', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let support: { id: number };
  let ann: { id: number; loginId: string };
  let bob: { id: number; loginId: string };
  before(async () => {
    t = await createTenant(ctx.db);
    support = await createTeam(ctx.db, { accountId: t.account.id, name: 'Support', autoAssign: true, skillNames: ['billing', 'tech'] });
    const [billing] = await ctx.db.select().from(skills).where(eq(skills.teamId, support.id)).orderBy(skills.name);
    ann = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'ann',
      name: 'Ann',
      teamIds: [support.id],
      availability: 'available',
      capacity: 2,
      skillIds: [billing.id],
    });
    bob = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'bob',
      name: 'Bob',
      teamIds: [support.id],
      availability: 'available',
      capacity: 2,
    });
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'manager',
      loginId: 'meg',
      name: 'Meg',
      teamIds: [support.id],
      availability: 'unavailable',
      capacity: 10,
    });
  });

  it('fills seats least loaded first under concurrent creation, never past capacity, skills respected', async () => {
    const created = await Promise.all(Array.from({ length: 6 }, () => newChat(t, { team_id: support.id })));
    const rows = await ctx.db
      .select()
      .from(chats)
      .where(
        inArray(
          chats.id,
          created.map((c) => c.chat_id),
        ),
      );
    const byUser = new Map<number | null, number>();
    for (const r of rows) byUser.set(r.assigneeId, (byUser.get(r.assigneeId) ?? 0) + 1);
    assert.equal(byUser.get(ann.id), 2);
    assert.equal(byUser.get(bob.id), 2);
    assert.equal(byUser.get(null), 2);
    for (const r of rows) assert.equal(r.status, r.assigneeId ? 'picked' : 'queued');
  });

  it('gives a skill chat only to a member with the skill; a freed seat takes the oldest chat it can', async () => {
    const desk = await createTeam(ctx.db, { accountId: t.account.id, name: 'Billing desk', autoAssign: true, skillNames: ['refunds'] });
    const [refunds] = await ctx.db.select().from(skills).where(eq(skills.teamId, desk.id));
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'rita',
      name: 'Rita',
      teamIds: [desk.id],
      availability: 'available',
      capacity: 1,
      skillIds: [refunds.id],
    });
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'ray',
      name: 'Ray',
      teamIds: [desk.id],
      availability: 'available',
      capacity: 1,
    });
    const first = await newChat(t, { team_id: desk.id, skill: 'refunds' });
    assert.equal(first.assignee, 'rita');
    const second = await newChat(t, { team_id: desk.id, skill: 'refunds' });
    assert.equal(second.assignee, null, 'ray has a free seat but not the skill; rita is full');
    // Rita's chat, closed by the service (a VA cannot close a chat it does not hold).
    await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: first.chat_id,
      teamId: desk.id,
      patch: { status: 'closed' },
      actorUserId: null,
    });
    const after = await botApi('GET', `/chats/${second.chat_id}`, { token: t.token });
    assert.equal(after.body.response.assignee, 'rita', "closing rita's chat gave her the waiting refunds chat");
  });

  it('hands queued chats to an agent who becomes available', async () => {
    const night = await createTeam(ctx.db, { accountId: t.account.id, name: 'Night shift', autoAssign: true });
    const owl = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: 'owl',
      name: 'Owl',
      teamIds: [night.id],
      availability: 'unavailable',
      capacity: 5,
    });
    const waiting = await newChat(t, { team_id: night.id });
    assert.equal(waiting.assignee, null);
    await updateUser(ctx.db, { accountId: t.account.id, userId: owl.id, patch: { availability: 'available' } });
    const after = await botApi('GET', `/chats/${waiting.chat_id}`, { token: t.token });
    assert.equal(after.body.response.assignee, 'owl');
    assert.equal(after.body.response.status, 'picked');
  });
});

describe('routes to a VA each emit exactly one chat.assigned', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let vaTeam: { id: number };
  let va: Awaited<ReturnType<typeof createVirtualAgent>>;
  before(async () => {
    t = await createTenant(ctx.db);
    vaTeam = await createTeam(ctx.db, { accountId: t.account.id, name: 'VA desk', autoAssign: true, skillNames: ['faq'] });
    va = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Desk bot',
      description: 'd',
      webhookUrl: 'http://127.0.0.1:9/x',
      teamId: vaTeam.id,
      subscriptions: ['chat.assigned', 'chat.unassigned'],
    });
    const [faq] = await ctx.db.select().from(skills).where(eq(skills.teamId, vaTeam.id));
    await ctx.db.insert(userSkills).values({ userId: va.user.id, skillId: faq.id });
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'manager',
      loginId: 'desk-manager',
      name: 'Desk Manager',
      teamIds: [vaTeam.id],
      availability: 'unavailable',
    });
    await ctx.db.insert(routingRules).values({
      accountId: t.account.id,
      position: 1,
      name: 'api to desk',
      conditions: [{ field: 'channel', op: 'equals', value: 'api' }],
      teamId: vaTeam.id,
    });
  });

  async function assignedEvents(chatId: string, vaId = va.user.id) {
    const rows = await ctx.db.select().from(events).where(eq(events.chatId, chatId));
    return rows.filter((r) => r.eventType === 'chat.assigned' && r.virtualAgentId === vaId);
  }

  it('by a routing rule into the VA team (dedicated-team pattern: the manager is unavailable)', async () => {
    const res = await botApi('POST', '/chats', {
      token: t.token,
      body: { channel: 'api', asset_id: t.assets.api.id, customer: { destination_id: 'u-1' } },
    });
    assert.equal(res.body.response.team_id, vaTeam.id);
    assert.equal(res.body.response.assignee, va.user.loginId);
    assert.equal((await assignedEvents(res.body.response.chat_id)).length, 1);
  });

  it('by POST /chats with assignee', async () => {
    const chat = await newChat(t, { assignee: va.user.loginId });
    assert.equal((await assignedEvents(chat.chat_id)).length, 1);
  });

  it('by PATCH /chats with assignee (and not again when re-sent)', async () => {
    // The tenant's other bot holds the chat and hands it to this VA, then asks again as the service.
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await patchChat(t, chat.chat_id, { assignee: va.user.loginId })).status, 200);
    await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      teamId: vaTeam.id,
      patch: { assignee: va.user.loginId },
      actorUserId: null,
    });
    assert.equal((await assignedEvents(chat.chat_id)).length, 1);
  });

  it('by a transfer to a skill of an auto-assign team', async () => {
    // An administrator's transfer of a waiting chat. A chat a bot transfers is handed to people,
    // and auto-assign gives it to no VA (test/routing/auto-assign-handover.integration.test.ts).
    const chat = await newChat(t, { team_id: t.humanTeam.id });
    assert.equal(chat.assignee, null);
    await transferChat(ctx.db, { accountId: t.account.id, chatId: chat.chat_id, teamId: vaTeam.id, skillName: 'faq', actorUserId: null });
    assert.equal((await assignedEvents(chat.chat_id)).length, 1);
  });

  it('by auto-assign on creation in the team', async () => {
    const chat = await newChat(t, { team_id: vaTeam.id });
    assert.equal(chat.assignee, va.user.loginId);
    assert.equal((await assignedEvents(chat.chat_id)).length, 1);
  });

  it("tells a VA it lost a chat to an administrator's transfer, and to its own", async () => {
    const chat = await newChat(t, { assignee: va.user.loginId });
    await transferChat(ctx.db, { accountId: t.account.id, chatId: chat.chat_id, teamId: t.humanTeam.id, actorUserId: null });
    const lost = (await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id))).filter(
      (e) => e.eventType === 'chat.unassigned',
    );
    assert.equal(lost.length, 1);
    assert.deepEqual((lost[0].body as any).payload.reason, 'transferred');
    assert.equal((lost[0].body as any).payload.team_id, t.humanTeam.id);

    const own = await newChat(t, { assignee: va.user.loginId });
    await transferChat(ctx.db, { accountId: t.account.id, chatId: own.chat_id, teamId: t.humanTeam.id, actorUserId: va.user.id });
    const ownLost = (await ctx.db.select().from(events).where(eq(events.chatId, own.chat_id))).filter(
      (e) => e.eventType === 'chat.unassigned',
    );
    assert.equal(ownLost.length, 1, 'a bot can stop on chat.unassigned whatever took the chat');
  });
});
