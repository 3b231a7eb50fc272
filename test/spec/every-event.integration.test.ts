import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { and, eq, inArray } from 'drizzle-orm';
import type { MessageInput } from '@/contracts/bot/schemas/message';
import { CHANNELS, type Channel, type EventType } from '@/contracts/enums';
import { events, virtualAgents } from '@/db/schema';
import { authorize } from '@/lib/bot-auth/authorize';
import { updateChat } from '@/lib/chats/update-chat';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { deliverClaimedEvent } from '@/lib/delivery/deliver-claimed-event';
import { ENTRY_KEY_ORDER, EVENT_KEY_ORDER } from '@/lib/events/serialize-event';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { type Received, type Receiver, startReceiver } from '../delivery/receiver';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';
import { assertSigned, assertValid, eventValidators } from './event-audit';

/**
 * What a bot receives, audited end to end: the service is driven through the bot API (and, for
 * "someone else", the functions the admin side calls) so that every event kind is emitted on every
 * channel; a real HTTP receiver captures each webhook, which is verified with the stock Standard
 * Webhooks library, validated against the served event schemas (closed: no undocumented field),
 * and read as a bot would: announcements never reach it, each message entry gives back what the
 * customer sent, a re-queue that lands back on the same VA reads "unassigned, assigned", events
 * of a chat arrive in the order things happened, and superseded events never arrive.
 */

const QR = '3f2b8c1e-6d4a-4e9b-9c7f-1a2b3c4d5e6f';
const WAB = { identifier: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14', title: 'Track my order' };
const PLAIN: MessageInput[] = [
  { type: 'inbound', text: 'Where is my order?' },
  { type: 'inbound', text: 'Here is the receipt', attachment: { type: 'image', url: 'https://files.example.com/r/1.png' } },
  { type: 'inbound', attachment: { type: 'file', url: 'https://files.example.com/r/2.pdf' } },
];

/** Every inbound shape each channel takes (sample spellings included), in the order they are sent. */
const INBOUND: Record<Channel, MessageInput[]> = {
  sms: PLAIN,
  social1: PLAIN,
  social2: PLAIN,
  email: PLAIN,
  api: PLAIN,
  livechat: [
    { type: 'inbound', livechat_sub_type: 'text', text: 'Hi there' },
    {
      type: 'inbound',
      livechat_sub_type: 'quick_reply_response',
      quick_reply_response: { request_identifier: QR, options: [{ title: 'Card', payload: 'pay_card' }] },
    },
    // The payload left out: filled from the offer the VA sent.
    {
      type: 'inbound',
      livechat_sub_type: 'quick_reply_response',
      quick_reply_response: { request_identifier: QR, options: [{ title: 'Bank transfer' }] },
    },
    // The spec's sample spelling of the sub type.
    { type: 'inbound', livechat_sub_type: 'quick_replies', quick_reply_response: { request_identifier: QR, options: [{ title: 'Card' }] } },
  ],
  abc: [
    { type: 'inbound', abc_sub_type: 'text', text: 'Hello' },
    { type: 'inbound', abc_sub_type: 'listpicker', list_picker_response: ['Blue', 'Large'] },
    { type: 'inbound', abc_sub_type: 'listpicker_response', listpicker_response: ['Red'] },
    { type: 'inbound', abc_sub_type: 'timepicker', time_picker_response: '2026-12-01T10:00:00+02:00' },
    { type: 'inbound', abc_sub_type: 'timepicker_response', timepicker_response: '2026-12-02T09:30:00Z' },
  ],
  messenger: [
    { type: 'inbound', text: 'Hi' },
    { type: 'inbound', text: 'Photo', attachment: { type: 'image', url: 'https://files.example.com/m/1.jpg' } },
    { type: 'inbound', wab_interactive_response: WAB },
  ],
};

/** An outbound message each channel takes (no event comes of it). */
const OUTBOUND: Record<Channel, MessageInput> = {
  sms: { type: 'outbound', text: 'On its way' },
  social1: { type: 'outbound', text: 'On its way', attachment: { type: 'file', url: 'https://files.example.com/o.pdf' } },
  social2: { type: 'outbound', text: 'On its way' },
  email: { type: 'outbound', text: 'Hello,\n\nit is on its way.' },
  api: { type: 'outbound', text: 'On its way' },
  livechat: {
    type: 'outbound',
    text: 'How did you pay?',
    livechat_sub_type: 'quick_replies',
    quick_replies: {
      request_identifier: QR,
      options: [
        { title: 'Card', payload: 'pay_card' },
        { title: 'Bank transfer', payload: 'pay_bank' },
      ],
    },
  },
  abc: { type: 'outbound', template_name: 'order_status_picker' },
  messenger: { type: 'outbound', messenger_sub_type: 'hsm', template_name: 'order_update' },
};

/** The channel's own chat fields on `POST /chats`. */
function chatExtras(channel: Channel): Record<string, unknown> {
  if (channel === 'livechat') return { thread_id: 'thread-77', browserfingerprint: 'fp-abc' };
  if (channel === 'email') return { subject: 'Order 1042' };
  return {};
}

/** The stored message an inbound input should become: aliases resolved, times in UTC. */
function expectedMessage(input: MessageInput): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  if ('listpicker_response' in out) {
    out.list_picker_response = out.listpicker_response;
    delete out.listpicker_response;
  }
  if ('timepicker_response' in out) {
    out.time_picker_response = out.timepicker_response;
    delete out.timepicker_response;
  }
  if (typeof out.time_picker_response === 'string') out.time_picker_response = new Date(out.time_picker_response).toISOString();
  if (out.abc_sub_type === 'listpicker_response') out.abc_sub_type = 'listpicker';
  if (out.abc_sub_type === 'timepicker_response') out.abc_sub_type = 'timepicker';
  if (out.livechat_sub_type === 'quick_replies') out.livechat_sub_type = 'quick_reply_response';
  return out;
}

/** The spec's entry fields a bot reads first, as they should summarise the stored message. */
function expectedSummary(m: Record<string, any>) {
  const choice = m.quick_reply_response?.options[0];
  let interactive: { title: string; postback: string } | null = null;
  if (choice) interactive = { title: choice.title, postback: choice.payload ?? choice.title };
  else if (m.list_picker_response) interactive = { title: m.list_picker_response[0], postback: m.list_picker_response[0] };
  else if (m.time_picker_response) interactive = { title: m.time_picker_response, postback: m.time_picker_response };
  else if (m.wab_interactive_response)
    interactive = { title: m.wab_interactive_response.title, postback: m.wab_interactive_response.identifier };
  return {
    type: interactive ? 'interactive' : 'text',
    text: m.text ?? '',
    attachments: m.attachment ? [m.attachment] : [],
    timestamp: m.timestamp,
    interactive_response: interactive,
  };
}

describe('every event kind on every channel, as a bot receives it', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  let validators: Awaited<ReturnType<typeof eventValidators>>;
  let desk: { id: number };
  let deskVa: Awaited<ReturnType<typeof createVirtualAgent>>;
  let deskToken: string;
  let deskAgent: { loginId: string };
  /** Captured requests already checked, by transaction id. */
  const checked = new Map<string, Received>();
  /** Event kinds seen per channel. */
  const seen = new Map<Channel, Set<EventType>>();

  const secretFor = (r: Received) => (r.url.endsWith('/desk') ? deskVa.signingSecret : t.bot.signingSecret);

  /** Delivers everything due, checks each request not yet checked, and answers the chat's bodies in arrival order. */
  async function delivered(chatId: string, path = '/hook') {
    for (;;) {
      const claimed = await claimDueEvents(ctx.db, { limit: 100 });
      if (!claimed.length) break;
      await Promise.all(claimed.map((event) => deliverClaimedEvent(ctx.db, { event })));
    }
    for (const r of receiver.requests) {
      const id = String(r.headers['webhook-id']);
      if (checked.has(id)) continue;
      checkRequest(r);
      checked.set(id, r);
    }
    return receiver.requests.filter((r) => r.url === path && r.body.chat_id === chatId).map((r) => r.body);
  }

  /** What every captured request must be, whatever its kind. */
  function checkRequest(r: Received) {
    const body = r.body;
    assert.equal(r.method, 'POST');
    assert.equal(r.headers['content-type'], 'application/json');
    assertSigned(r, secretFor(r));
    assert.equal(r.headers['webhook-id'], body.transaction_id, 'webhook-id is the transaction_id');
    for (const [name, fn] of Object.entries(validators) as [string, ValidateFunction][]) {
      if (typeof fn === 'function') assertValid(fn, body, `${body.event_type} against ${name}`);
    }
    // Keys in the spec's order (our lists keep it; the serializer's own test compares them with the spec).
    const order = EVENT_KEY_ORDER[body.event_type as EventType];
    assert.deepEqual(
      Object.keys(body),
      order.body.filter((k) => k in body),
    );
    assert.deepEqual(
      Object.keys(body.payload),
      order.payload.filter((k) => k in body.payload),
    );
    for (const entry of body.payload.messages ?? []) {
      assert.deepEqual(
        Object.keys(entry),
        ENTRY_KEY_ORDER.filter((k) => k in entry),
      );
      assert.equal(entry.transid, body.transaction_id, "an entry's transid is the trace of the request streamed");
      assert.notEqual(entry.message.type, 'announcement', 'announcements never reach bots');
      assert.deepEqual(
        {
          ...expectedSummary(entry.message),
          ...(entry.message.wab_interactive_response && { wab_interactive_response: entry.message.wab_interactive_response }),
        },
        {
          type: entry.type,
          text: entry.text,
          attachments: entry.attachments,
          timestamp: entry.timestamp,
          interactive_response: entry.interactive_response,
          ...(entry.wab_interactive_response && { wab_interactive_response: entry.wab_interactive_response }),
        },
      );
    }
    assert.match(body.posted_on, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(body.subject === '' || body.channel === 'email', true, 'subject is "" outside email');
    assert.equal('thread_id' in body, body.channel === 'livechat');
    assert.equal('browserfingerprint' in body, body.channel === 'livechat');
    if (r.url.endsWith('/desk')) assert.equal(r.headers['x-desk'], 'static', "the VA's static header");
    seen.set(body.channel, (seen.get(body.channel) ?? new Set()).add(body.event_type));
  }

  const post = (chatId: string, body: unknown, token = t.token) => botApi('POST', `/chats/${chatId}/messages`, { token, body });
  const patch = (chatId: string, teamId: number, body: unknown, token = t.token) =>
    botApi('PATCH', `/chats/${chatId}`, { token, headers: { team_id: String(teamId) }, body });

  before(async () => {
    receiver = await startReceiver();
    validators = await eventValidators();
    t = await createTenant(ctx.db, {
      webhookUrl: receiver.url,
      subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    });
    desk = await createTeam(ctx.db, { accountId: t.account.id, name: 'Desk', autoAssign: true });
    deskVa = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Desk bot',
      description: 'first line',
      webhookUrl: `${receiver.url}/desk`,
      // A static header, and one that tries to pass for a signature header (never sent as given).
      webhookHeaders: { 'x-desk': 'static', 'webhook-id': 'forged' },
      teamId: desk.id,
      subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    });
    deskToken = (await authorize(ctx.db, { apiKey: deskVa.apiKey })).accessToken;
    // These chats go from the VAs to people and back more often than the default loop limit allows
    // (its own test is test/handover): lift it, so every event kind is still reached.
    await ctx.db
      .update(virtualAgents)
      .set({ maxHandoversPerChat: 1000 })
      .where(inArray(virtualAgents.userId, [deskVa.user.id, t.bot.user.id]));
    deskAgent = await createUser(ctx.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: `desk-agent-${desk.id}`,
      name: 'Desk agent',
      teamIds: [desk.id],
      availability: 'unavailable',
    });
  });
  after(() => receiver.close());

  for (const channel of CHANNELS) {
    it(`${channel}: assigned, every inbound shape, superseded, handed over, taken back, closed`, async () => {
      const first = INBOUND[channel][0];
      const created = await botApi('POST', '/chats', {
        token: t.token,
        body: {
          channel,
          asset_id: t.assets[channel].id,
          customer: { destination_id: `cust-${channel}`, name: 'Dana' },
          team_id: t.humanTeam.id,
          ...chatExtras(channel),
          messages: [first, { type: 'announcement', text: 'note for agents' }],
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const chat = created.body.response;
      assert.equal(chat.assignee, null);
      const chatId: string = chat.chat_id;

      // Assigned with an announcement as the chat's last message: the entry is the customer's message.
      const taken = await patch(chatId, t.humanTeam.id, { assignee: t.bot.user.loginId });
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
      const [assigned] = await delivered(chatId);
      assert.equal(assigned.event_type, 'chat.assigned');
      assert.equal(assigned.payload.skill, null);
      assert.equal(assigned.payload.messages.length, 1);
      assert.deepEqual(assigned.payload.messages[0].message, chat.messages[0]);
      assert.equal(assigned.channel, channel);
      assert.equal(assigned.chat_id, chatId);
      assert.equal(assigned.asset, String(t.assets[channel].id));
      assert.equal(assigned.destination_id, `cust-${channel}`);
      assert.equal(assigned.team_id, taken.body.response.team_id, "the chat's team once assigned");
      assert.equal(assigned.subject, channel === 'email' ? 'Order 1042' : '');
      if (channel === 'livechat') {
        assert.equal(assigned.thread_id, 'thread-77');
        assert.equal(assigned.browserfingerprint, 'fp-abc');
      }

      // Outbound and announcements give no event; every inbound shape gives message.received.
      assert.equal((await post(chatId, OUTBOUND[channel])).status, 201);
      assert.equal((await post(chatId, { type: 'announcement', text: 'VIP' })).status, 201);
      const sent = [];
      for (const input of INBOUND[channel]) {
        const res = await post(chatId, input);
        assert.equal(res.status, 201, `${JSON.stringify(input)}: ${JSON.stringify(res.body)}`);
        sent.push({ input, stored: res.body.response });
      }
      assert.equal((await post(chatId, { type: 'announcement', text: 'after the customer' })).status, 201);
      const received = (await delivered(chatId)).slice(1);
      assert.deepEqual(
        received.map((b) => b.event_type),
        sent.map(() => 'message.received'),
      );
      const transcript = await botApi('GET', `/chats/${chatId}/messages?page_size=100`, { token: t.token });
      assert.equal(transcript.status, 200, JSON.stringify(transcript.body));
      for (const [i, { input, stored }] of sent.entries()) {
        const entry = received[i].payload.messages[0];
        assert.deepEqual(entry.message, stored, 'the entry carries the message as stored');
        assert.deepEqual(
          entry.message,
          transcript.body.response.messages.find((m: { transid: string }) => m.transid === stored.transid),
          'the same as the transcript',
        );
        const { transid: _t, author, timestamp: _ts, turn_id: turnId, ...rest } = entry.message;
        assert.equal(turnId, received[i].payload.turn_id, 'the message names the turn its event carries');
        const want = expectedMessage(input);
        // A quick-reply answer without a payload gets the payload of the offer it answers.
        if (input.quick_reply_response && !input.quick_reply_response.options[0].payload) {
          const offered = (OUTBOUND.livechat.quick_replies?.options ?? []).find(
            (o) => o.title === input.quick_reply_response?.options[0].title,
          );
          want.quick_reply_response = { request_identifier: QR, options: [{ title: offered?.title, payload: offered?.payload }] };
        }
        assert.deepEqual(rest, want, `what the customer sent: ${JSON.stringify(input)}`);
        assert.equal(author, null);
      }

      // A message.received still waiting when the VA hands the chat over is superseded, never sent.
      assert.equal((await post(chatId, { type: 'inbound', text: 'are you still there?' })).status, 201);
      const [waiting] = await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.chatId, chatId), eq(events.status, 'pending')));
      const handover = await botApi('PATCH', `/internal/chats/${chatId}`, {
        token: t.token,
        body: { transfer: { teamid: t.botTeam.id, skill_name: 'billing' } },
      });
      assert.equal(handover.status, 202, JSON.stringify(handover.body));
      assert.deepEqual(handover.body, { status_code: 4342, description: handover.body.description, response: '' });

      await delivered(chatId);
      // Taken back by the VA from the queue: chat.assigned with the message it missed. Then closed by itself.
      // (Delivered between the steps: events still waiting when the VA loses the chat are superseded.)
      assert.equal((await patch(chatId, t.botTeam.id, { assignee: t.bot.user.loginId })).status, 200);
      await delivered(chatId);
      assert.equal((await patch(chatId, t.botTeam.id, { status: 'closed', outcome: 'resolved' })).status, 200);

      const all = await delivered(chatId);
      assert.deepEqual(
        all.map((b) => b.event_type),
        ['chat.assigned', ...sent.map(() => 'message.received'), 'chat.unassigned', 'chat.assigned', 'chat.closed'],
      );
      assert.ok(!all.some((b) => b.transaction_id === waiting.transactionId), 'the superseded event never arrives');
      const [stale] = await ctx.db.select().from(events).where(eq(events.id, waiting.id));
      assert.equal(stale.status, 'superseded');
      const [unassigned, back, closed] = all.slice(-3);
      assert.deepEqual(
        { reason: unassigned.payload.reason, team_id: unassigned.payload.team_id, assignee: unassigned.payload.assignee },
        { reason: 'transferred', team_id: t.botTeam.id, assignee: null },
      );
      assert.equal(back.payload.messages[0].text, 'are you still there?');
      // Back with a VA that held it before: the transcript so far too, ending with that message.
      assert.equal(back.payload.transcript.at(-1).text, 'are you still there?');
      assert.ok(back.payload.transcript.length > 1);
      assert.equal(back.payload.skill, 'billing', 'the skill the chat was handed to');
      assert.equal(back.team_id, t.botTeam.id);
      assert.equal(closed.payload.chat_outcome, 'resolved');
      assert.equal(Date.parse(closed.payload.timestamp) > 0, true);
    });

    it(`${channel}: re-queued by someone else and by itself, reassigned, closed by someone else`, async () => {
      const created = await botApi('POST', '/chats', {
        token: t.token,
        body: {
          channel,
          asset_id: t.assets[channel].id,
          customer: { destination_id: `desk-${channel}`, name: 'Eli' },
          team_id: desk.id,
          ...chatExtras(channel),
          messages: [INBOUND[channel].at(-1)],
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const chatId: string = created.body.response.chat_id;
      assert.equal(created.body.response.assignee, deskVa.user.loginId, 'auto-assign gives it to the desk VA');
      await delivered(chatId, '/hook/desk');

      // Someone else re-queues it: handed to people, it waits for one (auto-assign gives it to no
      // VA), and the VA takes it back itself.
      const requeued = await updateChat(ctx.db, {
        accountId: t.account.id,
        chatId,
        teamId: desk.id,
        patch: { status: 'queued' },
        actorUserId: null,
      });
      assert.deepEqual([requeued.status, requeued.assignee], ['queued', null]);
      await delivered(chatId, '/hook/desk');
      const takenBack = await patch(chatId, desk.id, { assignee: deskVa.user.loginId }, deskToken);
      assert.equal(takenBack.body.response.assignee, deskVa.user.loginId, JSON.stringify(takenBack.body));
      await delivered(chatId, '/hook/desk');
      // The VA re-queues it itself, through the API: it waits for people again; the VA takes it back.
      const own = await patch(chatId, desk.id, { status: 'queued' }, deskToken);
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.response.assignee, null);
      await delivered(chatId, '/hook/desk');
      assert.equal(
        (await patch(chatId, desk.id, { assignee: deskVa.user.loginId }, deskToken)).body.response.assignee,
        deskVa.user.loginId,
      );
      await delivered(chatId, '/hook/desk');
      // Reassigned to an agent by someone else, given back, then closed by someone else.
      // (Delivered between the steps: an event still waiting when the VA loses the chat is superseded.)
      await updateChat(ctx.db, {
        accountId: t.account.id,
        chatId,
        teamId: desk.id,
        patch: { assignee: deskAgent.loginId },
        actorUserId: null,
      });
      await delivered(chatId, '/hook/desk');
      await updateChat(ctx.db, {
        accountId: t.account.id,
        chatId,
        teamId: desk.id,
        patch: { assignee: deskVa.user.loginId },
        actorUserId: null,
      });
      await delivered(chatId, '/hook/desk');
      await updateChat(ctx.db, { accountId: t.account.id, chatId, teamId: desk.id, patch: { status: 'closed' }, actorUserId: null });

      const all = await delivered(chatId, '/hook/desk');
      assert.deepEqual(
        all.map((b) => [b.event_type, b.payload.reason ?? null]),
        [
          ['chat.assigned', null],
          ['chat.unassigned', 'requeued'],
          ['chat.assigned', null],
          ['chat.unassigned', 'requeued'],
          ['chat.assigned', null],
          ['chat.unassigned', 'reassigned'],
          ['chat.assigned', null],
          ['chat.closed', null],
          ['chat.unassigned', 'closed'],
        ],
      );
      assert.equal(all[5].payload.assignee, deskAgent.loginId);
      assert.equal(all[8].payload.assignee, null);
      for (const b of all.filter((b) => b.event_type === 'chat.assigned')) {
        assert.deepEqual(b.payload.messages[0].message, created.body.response.messages[0]);
      }
    });
  }

  it('covered every event kind on every channel, with unique transaction ids', () => {
    for (const channel of CHANNELS) {
      assert.deepEqual(
        [...(seen.get(channel) ?? [])].sort(),
        ['chat.assigned', 'chat.closed', 'chat.unassigned', 'message.received'],
        channel,
      );
    }
    assert.equal(new Set(receiver.requests.map((r) => r.body.transaction_id)).size, receiver.requests.length);
    assert.equal(checked.size, receiver.requests.length);
  });
});
