import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { transferChat } from '@/lib/chats/transfer-chat';
import { updateChat } from '@/lib/chats/update-chat';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { deliveredBodies, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import type { ApiClient } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

/** Event order after a chat goes back to a queue, and the queue a switched-on auto-assign picks up. */
describe('re-queue order and auto-assign pickup', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  let admin: ApiClient;
  let desk: { id: number };
  let va: Awaited<ReturnType<typeof createVirtualAgent>>;

  /** Delivers everything due; the event types the receiver got for the chat, in arrival order. */
  const receivedFor = (chatId: string) => deliveredBodies(ctx.db, receiver, chatId);

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh));
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    desk = await createTeam(ctx.db, { accountId: t.account.id, name: 'Desk', autoAssign: true });
    va = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Desk bot',
      description: 'd',
      webhookUrl: receiver.url,
      teamId: desk.id,
      subscriptions: ['chat.assigned', 'chat.unassigned'],
    });
  });

  // A chat that leaves its VA for a queue is handed to people: auto-assign gives it to no VA, not
  // even the one that held it and has the seat (test/routing/auto-assign-handover).
  it('re-queued by someone else, the VA hears unassigned and the chat waits for people, not handed back', async () => {
    const chat = await newChat(t, { team_id: desk.id });
    assert.equal(chat.assignee, va.user.loginId);
    await receivedFor(chat.chat_id); // delivered before the change (one still waiting would be superseded)
    const view = await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      teamId: desk.id,
      patch: { status: 'queued' },
      actorUserId: null,
    });
    assert.deepEqual([view.status, view.assignee], ['queued', null]);

    const got = await receivedFor(chat.chat_id);
    assert.deepEqual(
      got.map((b) => b.event_type),
      ['chat.assigned', 'chat.unassigned'],
    );
    assert.equal(got[1].payload.reason, 'requeued');
    assert.equal(got[1].payload.assignee, null);
  });

  it('transferred by an administrator into its own team, the VA hears unassigned and the chat waits for people', async () => {
    const chat = await newChat(t, { team_id: desk.id });
    await receivedFor(chat.chat_id);
    await transferChat(ctx.db, { accountId: t.account.id, chatId: chat.chat_id, teamId: desk.id, actorUserId: null });
    const got = await receivedFor(chat.chat_id);
    assert.deepEqual(
      got.map((b) => b.event_type),
      ['chat.assigned', 'chat.unassigned'],
    );
    assert.equal(got[1].payload.reason, 'transferred');
  });

  it('re-queued by the VA itself, it hears unassigned and is not given the chat back', async () => {
    const chat = await newChat(t, { team_id: desk.id });
    await receivedFor(chat.chat_id);
    const view = await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      teamId: desk.id,
      patch: { status: 'queued' },
      actorUserId: va.user.id,
    });
    assert.deepEqual([view.status, view.assignee], ['queued', null]);
    const got = await receivedFor(chat.chat_id);
    assert.deepEqual(
      got.map((b) => b.event_type),
      ['chat.assigned', 'chat.unassigned'],
    );
  });

  it('switching auto-assign on offers the waiting queue to ready members at once, oldest first', async () => {
    const quiet = await createTeam(ctx.db, { accountId: t.account.id, name: 'Quiet', autoAssign: false });
    const agent = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: `quiet-${quiet.id}`,
      name: 'Quiet agent',
      teamIds: [quiet.id],
      availability: 'available',
      capacity: 2,
    });
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push(await newChat(t, { team_id: quiet.id }));
    assert.ok(waiting.every((c) => c.status === 'queued' && c.assignee === null));

    const renamed = await admin.patch(`/teams/${quiet.id}`, { name: 'Quiet desk' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal((await admin.get(`/chats/${waiting[0].chat_id}`)).body.response.assignee, null, 'a rename assigns nothing');

    const on = await admin.patch(`/teams/${quiet.id}`, { auto_assign: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.response.auto_assign, true);
    const after = await Promise.all(waiting.map(async (c) => (await admin.get(`/chats/${c.chat_id}`)).body.response));
    assert.deepEqual(
      after.map((c) => [c.status, c.assignee]),
      [
        ['picked', agent.loginId],
        ['picked', agent.loginId],
        ['queued', null],
      ],
    );
  });

  it('switching auto-assign on gives a VA member its waiting chats with chat.assigned', async () => {
    const off = await createTeam(ctx.db, { accountId: t.account.id, name: 'Night', autoAssign: false });
    const night = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Night bot',
      description: 'd',
      webhookUrl: receiver.url,
      teamId: off.id,
      subscriptions: ['chat.assigned'],
    });
    const chat = await newChat(t, { team_id: off.id, messages: [{ type: 'inbound', text: 'still there?' }] });
    assert.equal(chat.assignee, null);
    assert.equal((await receivedFor(chat.chat_id)).length, 0);
    assert.equal((await admin.patch(`/teams/${off.id}`, { auto_assign: true })).status, 200);
    const [assigned] = await receivedFor(chat.chat_id);
    assert.equal(assigned.event_type, 'chat.assigned');
    assert.equal(assigned.payload.messages[0].text, 'still there?');
    assert.equal((await admin.get(`/chats/${chat.chat_id}`)).body.response.assignee, night.user.loginId);
  });
});
