import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAsset } from '@/lib/assets/create-asset';
import { updateChat } from '@/lib/chats/update-chat';
import { deliveredBodies, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import type { Tenant } from '../support/tenant';

/**
 * What a bot receives about messages, checked on the requests a real receiver gets: the last
 * message is one with the customer, the entry carries the message as accepted, the asset's address
 * travels beside its id, and each entry's transid traces its own request.
 */
describe('event message entries', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;

  /** Delivers everything due and answers the bodies the receiver got for this chat, in order. */
  const deliveredFor = (chatId: string) => deliveredBodies(ctx.db, receiver, chatId);

  const post = (chatId: string, body: unknown) => botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body });

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh));

  it('never hands an announcement to the bot as the last message, and names the asset address beside its id', async () => {
    const asset = await createAsset(ctx.db, { accountId: t.account.id, channel: 'sms', name: 'Main line', address: '+15551234567' });
    const chat = await newChat(t, {
      asset_id: asset.id,
      team_id: t.humanTeam.id,
      messages: [{ type: 'inbound', text: 'my card was charged twice' }],
    });
    assert.equal(chat.asset.address, '+15551234567');
    assert.equal((await post(chat.chat_id, { type: 'announcement', text: 'note for agents' })).status, 201);
    const assigned = await patchChat(t, chat.chat_id, { assignee: t.bot.user.loginId }, t.humanTeam.id);
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));

    // Created already assigned, with an announcement as its last initial message.
    const direct = await newChat(t, {
      asset_id: asset.id,
      assignee: t.bot.user.loginId,
      messages: [
        { type: 'inbound', text: 'hello?' },
        { type: 'announcement', text: 'VIP customer' },
      ],
    });

    const [first] = await deliveredFor(chat.chat_id);
    assert.equal(first.event_type, 'chat.assigned');
    assert.equal(first.asset, String(asset.id));
    assert.equal(first.asset_address, '+15551234567');
    assert.equal(first.payload.messages.length, 1);
    assert.equal(first.payload.messages[0].text, 'my card was charged twice');
    assert.equal(first.payload.messages[0].message.type, 'inbound');

    const [second] = await deliveredFor(direct.chat_id);
    assert.equal(second.payload.messages[0].text, 'hello?');
    assert.equal(second.asset_address, '+15551234567');
  });

  it('gives the asset address as null when none was registered', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const [body] = await deliveredFor(chat.chat_id);
    assert.equal(body.asset_address, null);
    assert.equal(chat.asset.address, null);
  });

  it('carries an abc list-picker answer whole: sub type, every choice, direction', async () => {
    const chat = await newChat(t, { channel: 'abc', assignee: t.bot.user.loginId });
    const sent = await post(chat.chat_id, { type: 'inbound', abc_sub_type: 'listpicker_response', listpicker_response: ['Blue', 'Large'] });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const received = (await deliveredFor(chat.chat_id)).find((b) => b.event_type === 'message.received');
    const entry = received.payload.messages[0];
    assert.equal(entry.type, 'interactive');
    assert.deepEqual(entry.interactive_response, { title: 'Blue', postback: 'Blue' });
    assert.deepEqual(entry.message, sent.body.response);
    assert.deepEqual(entry.message.list_picker_response, ['Blue', 'Large']);
    assert.equal(entry.message.abc_sub_type, 'listpicker');
    assert.equal(entry.message.type, 'inbound');
  });

  it('stores and emits a time-picker answer sent with an offset in UTC', async () => {
    const chat = await newChat(t, { channel: 'abc', assignee: t.bot.user.loginId });
    const sent = await post(chat.chat_id, {
      type: 'inbound',
      abc_sub_type: 'timepicker',
      time_picker_response: '2026-12-01T10:00:00+02:00',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.equal(sent.body.response.time_picker_response, '2026-12-01T08:00:00.000Z');
    const received = (await deliveredFor(chat.chat_id)).find((b) => b.event_type === 'message.received');
    assert.equal(received.payload.messages[0].message.time_picker_response, '2026-12-01T08:00:00.000Z');
    assert.equal(received.payload.messages[0].interactive_response.postback, '2026-12-01T08:00:00.000Z');
  });

  it('appends a messenger interactive-template answer and emits wab_interactive_response', async () => {
    const answer = { identifier: '6a1d4f0e-2b7c-4c1e-9f3a-8d5e0b2c7a14', title: 'Track my order' };
    const chat = await newChat(t, { channel: 'messenger', assignee: t.bot.user.loginId });
    const sent = await post(chat.chat_id, { type: 'inbound', wab_interactive_response: answer });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.response.wab_interactive_response, answer);
    const received = (await deliveredFor(chat.chat_id)).find((b) => b.event_type === 'message.received');
    const entry = received.payload.messages[0];
    assert.equal(entry.type, 'interactive');
    assert.deepEqual(entry.wab_interactive_response, answer);
    assert.deepEqual(entry.interactive_response, { title: answer.title, postback: answer.identifier });

    const sms = await newChat(t);
    const refused = await post(sms.chat_id, { type: 'inbound', wab_interactive_response: answer });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.status_code, 2020);
    assert.equal(refused.body.response.errors[0].field, 'wab_interactive_response');
    const outbound = await post(chat.chat_id, { type: 'outbound', wab_interactive_response: answer });
    assert.equal(outbound.body.status_code, 2020);
    const notUuid = await post(chat.chat_id, { type: 'inbound', wab_interactive_response: { identifier: 'x', title: 'y' } });
    assert.equal(notUuid.status, 400);
  });

  it('gives each event its own transid and keeps the message trace in message.transid', async () => {
    const chat = await newChat(t, { messages: [{ type: 'inbound', text: 'anyone?' }] });
    const a = await patchChat(t, chat.chat_id, { assignee: t.bot.user.loginId });
    assert.equal(a.status, 200, JSON.stringify(a.body));
    await deliveredFor(chat.chat_id); // sent before the handover (one still waiting then would be superseded)
    assert.equal((await patchChat(t, chat.chat_id, { assignee: t.agent.loginId }, t.botTeam.id)).status, 200);
    // The agent's chat now: given back to the bot by the service (a VA cannot take it from the agent).
    const back = await updateChat(ctx.db, {
      accountId: t.account.id,
      chatId: chat.chat_id,
      teamId: t.humanTeam.id,
      patch: { assignee: t.bot.user.loginId },
      actorUserId: null,
    });
    assert.equal(back.assignee, t.bot.user.loginId);
    const assigned = (await deliveredFor(chat.chat_id)).filter((b) => b.event_type === 'chat.assigned');
    assert.equal(assigned.length, 2);
    const [e1, e2] = assigned.map((b) => b.payload.messages[0]);
    assert.equal(e1.transid, assigned[0].transaction_id);
    assert.equal(e2.transid, assigned[1].transaction_id);
    assert.notEqual(e1.transid, e2.transid);
    assert.equal(e1.message.transid, e2.message.transid);
    assert.equal(e1.message.transid, chat.messages[0].transid);
  });

  it('accepts the spec spelling quick_reply_response for outbound quick replies, stored as quick_replies', async () => {
    const chat = await newChat(t, { channel: 'livechat', assignee: t.bot.user.loginId });
    const quick = { request_identifier: 'r-1', options: [{ title: 'Yes', payload: 'Y' }] };
    const sent = await post(chat.chat_id, {
      type: 'outbound',
      livechat_sub_type: 'quick_reply_response',
      text: 'Pick',
      quick_replies: quick,
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.equal(sent.body.response.livechat_sub_type, 'quick_replies');
    const missing = await post(chat.chat_id, { type: 'outbound', livechat_sub_type: 'quick_reply_response', text: 'Pick' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.response.errors[0].field, 'quick_replies');
  });
});
