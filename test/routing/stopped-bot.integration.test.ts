import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { deliverDue } from '../delivery/helpers';
import { type Receiver, startReceiver } from '../delivery/receiver';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// A failed attempt is retried at once, so a round of delivery reaches the stopped bot now.
process.env.DELIVERY_RETRY_DELAYS_MS = '0';
process.env.DELIVERY_TIMEOUT_MS = '500';
resetEnv();

/**
 * The demo's set-up for "your own bot": a VA of one's own registered in the team of a Demo Bot that
 * is not running. Auto-assign gives new chats to the VA whose webhook answers, so no customer is
 * left with the stopped bot; the stopped bot still takes chats when nobody else can.
 */
describe('auto-assign beside a stopped bot', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let demoUp = false;
  let demo: Receiver;
  let own: Receiver;
  let team: { id: number };
  let demoBot: Awaited<ReturnType<typeof createVirtualAgent>>;
  let ownBot: Awaited<ReturnType<typeof createVirtualAgent>>;
  const deliverAll = async () => {
    for (let round = 0; round < 50; round++) if ((await deliverDue(ctx.db)).length === 0) return;
    assert.fail('events still due after 50 rounds');
  };

  before(async () => {
    demo = await startReceiver(() => (demoUp ? { status: 200, body: 'ok' } : { status: 503, body: 'not running' }));
    own = await startReceiver(() => ({ status: 200, body: 'ok' }));
    t = await createTenant(ctx.db);
    team = await createTeam(ctx.db, { accountId: t.account.id, name: 'Virtual Agents', autoAssign: true });
    // As the demo has it: the bot, and its manager who is not available.
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'manager',
      loginId: 'va-manager',
      name: 'VA Manager',
      teamIds: [team.id],
      availability: 'unavailable',
    });
    const subscriptions = ['chat.assigned' as const, 'message.received' as const];
    demoBot = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Demo Bot',
      description: 'the demo',
      webhookUrl: demo.url,
      teamId: team.id,
      subscriptions,
    });
    // The demo's first chat is the Demo Bot's: its event fails while the bot is not running.
    await newChat(t, { team_id: team.id, assignee: demoBot.user.loginId });
    await deliverAll();
    const [marked] = await ctx.db.select().from(virtualAgents).where(eq(virtualAgents.userId, demoBot.user.id));
    assert.ok(marked.webhookFailingSince, 'the failed delivery is noted');
    ownBot = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'My Bot',
      description: 'mine',
      webhookUrl: own.url,
      teamId: team.id,
      subscriptions,
    });
  });
  after(async () => {
    await demo.close();
    await own.close();
  });

  it('gives every new chat to the VA whose webhook answers, even when the stopped one is less loaded', async () => {
    // Least-loaded first alone would alternate from the second chat on (the Demo Bot has the lower id).
    for (let i = 0; i < 4; i++) {
      const chat = await newChat(t, { team_id: team.id });
      assert.equal(chat.assignee, ownBot.user.loginId, `chat ${i + 1}`);
    }
    await deliverAll();
  });

  it('gives a stopped bot a chat when no one else can take it', async () => {
    const alone = await createTeam(ctx.db, { accountId: t.account.id, name: 'Only a stopped bot', autoAssign: true });
    const lone = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Lone Bot',
      description: 'stopped too',
      webhookUrl: demo.url,
      teamId: alone.id,
      subscriptions: ['chat.assigned'],
    });
    await newChat(t, { team_id: alone.id, assignee: lone.user.loginId });
    await deliverAll();
    const [row] = await ctx.db.select().from(virtualAgents).where(eq(virtualAgents.userId, lone.user.id));
    assert.ok(row.webhookFailingSince);
    const chat = await newChat(t, { team_id: alone.id });
    assert.equal(chat.assignee, lone.user.loginId);
  });

  it('shares new chats again once the Demo Bot runs and takes a delivery', async () => {
    demoUp = true;
    // Its earlier events failed for good; the next one given to it (here by name) is delivered
    // and clears the mark.
    await newChat(t, { team_id: team.id, assignee: demoBot.user.loginId });
    await deliverAll();
    const [row] = await ctx.db.select().from(virtualAgents).where(eq(virtualAgents.userId, demoBot.user.id));
    assert.equal(row.webhookFailingSince, null);
    // The Demo Bot holds 2 open chats, the other VA 4: least loaded first again.
    const chat = await newChat(t, { team_id: team.id });
    assert.equal(chat.assignee, demoBot.user.loginId);
  });
});
