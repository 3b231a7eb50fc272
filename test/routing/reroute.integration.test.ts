import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { chats, events, messages } from '@/db/schema';
import { resetEnv } from '@/env';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { deliverDue, sendInbound } from '../delivery/helpers';
import { type Receiver, startReceiver } from '../delivery/receiver';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// A failed attempt is retried at once, so a round of delivery reaches a stopped bot now.
process.env.DELIVERY_RETRY_DELAYS_MS = '0';
process.env.DELIVERY_TIMEOUT_MS = '500';
resetEnv();

type Va = Awaited<ReturnType<typeof createVirtualAgent>>;
const subscriptions = ['chat.assigned' as const, 'message.received' as const];

/** An address where nothing listens: a receiver started, then closed (connection refused). */
async function closedAddress(): Promise<{ url: string; port: number }> {
  const r = await startReceiver();
  await r.close();
  return { url: r.url, port: r.port };
}

/**
 * The demo's set-up for "your own bot": two webhook VAs in one team, one of them stopped after it
 * ran. The first new chat auto-assign still gives the stopped one (its webhook is not known down
 * yet) moves to the other VA on the first failed attempt, rather than waiting for the retries.
 */
describe('re-route from a VA whose webhook fails before it heard of the chat', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let team: { id: number };
  let a: Va;
  let b: Va;
  let aUp: Receiver;
  let bUp: Receiver;
  let aBack: http.Server | null = null;
  const aBackBodies: { chat_id?: string }[] = [];
  const deliverAll = async () => {
    for (let round = 0; round < 50; round++) if ((await deliverDue(ctx.db)).length === 0) return;
    assert.fail('events still due after 50 rounds');
  };
  const chatRow = async (chatId: string) => (await ctx.db.select().from(chats).where(eq(chats.id, chatId)))[0];
  const vaEvents = (chatId: string, va: Va) =>
    ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chatId), eq(events.virtualAgentId, va.user.id)));
  const makeVa = (name: string, teamId: number, webhookUrl: string) =>
    createVirtualAgent(ctx.db, { accountId: t.account.id, name, description: name, webhookUrl, teamId, subscriptions });

  before(async () => {
    aUp = await startReceiver();
    bUp = await startReceiver();
    t = await createTenant(ctx.db);
    team = await createTeam(ctx.db, { accountId: t.account.id, name: 'Virtual Agents', autoAssign: true });
    a = await makeVa('Demo Bot', team.id, aUp.url);
    b = await makeVa('My Bot', team.id, bUp.url);
  });
  after(async () => {
    await aUp.close();
    await bUp.close();
    await new Promise((resolve) => (aBack ? aBack.close(resolve) : resolve(null)));
  });

  it('moves the next chat from the stopped VA to the other one at its first failed attempt', async () => {
    // Both bots run: each takes a chat (least loaded first, ties to the lower id).
    const first = await newChat(t, { team_id: team.id });
    const second = await newChat(t, { team_id: team.id });
    assert.deepEqual([first.assignee, second.assignee], [a.user.loginId, b.user.loginId]);
    await deliverAll();
    assert.ok(aUp.requests.some((r) => r.body.chat_id === first.chat_id));

    // The Demo Bot stops: its address refuses connections. It is not known down yet.
    await aUp.close();
    const chat = await newChat(t, { team_id: team.id });
    assert.equal(chat.assignee, a.user.loginId, 'auto-assign still gives it the next chat');
    const before = bUp.requests.length;
    await deliverDue(ctx.db);
    const row = await chatRow(chat.chat_id);
    assert.equal(row.assigneeId, b.user.id, 'the chat moved after one failed attempt');
    assert.equal(row.status, 'picked');
    assert.equal(row.queueReason, 'rerouted');
    await deliverAll();
    const toB = bUp.requests.slice(before).filter((r) => r.body.chat_id === chat.chat_id);
    assert.deepEqual(
      toB.map((r) => r.body.event_type),
      ['chat.assigned'],
    );
    // The Demo Bot's events of the chat never go out: superseded (none waits).
    const aRows = await vaEvents(chat.chat_id, a);
    assert.ok(aRows.length >= 1);
    for (const e of aRows) assert.notEqual(e.status, 'pending');
    assert.ok(!aRows.some((e) => e.eventType === 'chat.unassigned'), 'no chat.unassigned for a chat it never heard of');
    // The transcript says why, for people.
    const notes = await ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.chatId, chat.chat_id), eq(messages.type, 'announcement')));
    assert.equal(notes.length, 1);
    assert.match(String((notes[0].body as { text: string }).text), /Demo Bot|did not accept chat\.assigned.*re-routed to/);

    // The customer's next message goes to the new VA; the Demo Bot, running again at its address,
    // hears nothing of the chat.
    aBack = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        aBackBodies.push(JSON.parse(raw));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => aBack?.listen(aUp.port, '127.0.0.1', resolve));
    await sendInbound(t, chat.chat_id, 'hello?');
    await deliverAll();
    assert.ok(bUp.requests.some((r) => r.body.chat_id === chat.chat_id && r.body.event_type === 'message.received'));
    assert.equal(aBackBodies.filter((body) => body.chat_id === chat.chat_id).length, 0);
  });

  it('leaves a chat whose assignee was named in the API call', async () => {
    const team2 = await createTeam(ctx.db, { accountId: t.account.id, name: 'Named', autoAssign: true });
    const down = await makeVa('Named Bot', team2.id, (await closedAddress()).url);
    await makeVa('Other Bot', team2.id, bUp.url);
    const chat = await newChat(t, { team_id: team2.id, assignee: down.user.loginId });
    await deliverAll();
    assert.equal((await chatRow(chat.chat_id)).assigneeId, down.user.id);
  });

  it('leaves a chat whose VA already received one of its events', async () => {
    const team3 = await createTeam(ctx.db, { accountId: t.account.id, name: 'Heard', autoAssign: true });
    const up = await startReceiver();
    const heard = await makeVa('Heard Bot', team3.id, up.url);
    await makeVa('Spare Bot', team3.id, bUp.url);
    const chat = await newChat(t, { team_id: team3.id });
    assert.equal(chat.assignee, heard.user.loginId);
    await deliverAll();
    await up.close();
    await sendInbound(t, chat.chat_id, 'still there?');
    await deliverAll();
    const row = await chatRow(chat.chat_id);
    assert.equal(row.assigneeId, heard.user.id);
    assert.notEqual(row.queueReason, 'rerouted');
  });

  it('leaves the chat when no other VA can take it (a person in the team does not count)', async () => {
    const team4 = await createTeam(ctx.db, { accountId: t.account.id, name: 'Alone', autoAssign: true });
    const alone = await makeVa('Alone Bot', team4.id, (await closedAddress()).url);
    await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: `person-${team4.id}`,
      name: 'A person',
      teamIds: [team4.id],
      availability: 'available',
    });
    const chat = await newChat(t, { team_id: team4.id });
    assert.equal(chat.assignee, alone.user.loginId);
    await deliverAll();
    const row = await chatRow(chat.chat_id);
    assert.equal(row.assigneeId, alone.user.id);
    assert.equal(row.queueReason, null);
  });

  it('moves a chat once per VA when every VA of the team is down, then leaves it', async () => {
    const team5 = await createTeam(ctx.db, { accountId: t.account.id, name: 'All down', autoAssign: true });
    const c = await makeVa('Down One', team5.id, (await closedAddress()).url);
    const d = await makeVa('Down Two', team5.id, (await closedAddress()).url);
    const chat = await newChat(t, { team_id: team5.id });
    assert.equal(chat.assignee, c.user.loginId);
    await deliverAll();
    assert.equal((await chatRow(chat.chat_id)).assigneeId, d.user.id);
    const notes = await ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.chatId, chat.chat_id), eq(messages.type, 'announcement')));
    assert.equal(notes.length, 1, 'one move, no bouncing back');
  });
});
