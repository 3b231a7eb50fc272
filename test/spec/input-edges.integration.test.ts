import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const TOO_BIG = '99999999999';

/** Ids the database cannot hold, ids in other notations, and empty bodies: envelopes, never a 500. */
describe('input edges', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let chatId: string;
  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    chatId = (await newChat(t, { assignee: t.bot.user.loginId })).chat_id;
  });

  it('refuses a team_id header that is not a decimal integer', async () => {
    for (const value of ['0x3', '3e0', '+3', '3.0', '-3']) {
      const res = await patchChat(t, chatId, { tags: ['x'] }, value as unknown as number);
      assert.equal(res.status, 400, `${value}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.status_code, 2002, value);
    }
    const list = await botApi('GET', '/chats?team_id=0x3', { token: t.token });
    assert.equal(list.body.status_code, 2001);
  });

  it('answers ids beyond the integer range as not found or invalid, not 500', async () => {
    const header = await patchChat(t, chatId, { tags: ['x'] }, TOO_BIG as unknown as number);
    assert.ok([2002, 2010].includes(header.body.status_code), JSON.stringify(header.body));
    const body = { channel: 'sms', customer: { destination_id: '+15550009' } };
    const team = await botApi('POST', '/chats', { token: t.token, body: { ...body, asset_id: t.assets.sms.id, team_id: Number(TOO_BIG) } });
    assert.ok([2000, 2010].includes(team.body.status_code), JSON.stringify(team.body));
    const asset = await botApi('POST', '/chats', { token: t.token, body: { ...body, asset_id: Number(TOO_BIG) } });
    assert.ok([2000, 2032].includes(asset.body.status_code), JSON.stringify(asset.body));
    const transfer = await botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: '9999999999' } } });
    assert.ok([2000, 2010].includes(transfer.body.status_code), JSON.stringify(transfer.body));
    const list = await botApi('GET', `/chats?team_id=${TOO_BIG}`, { token: t.token });
    assert.ok([2001, 4303].includes(list.body.status_code), JSON.stringify(list.body));
    const chat = await botApi('GET', `/chats/${'9'.repeat(300)}`, { token: t.token });
    assert.ok([2014, 2031].includes(chat.body.status_code), JSON.stringify(chat.body));
    const adminChats = await admin.get(`/chats?team_id=${TOO_BIG}`);
    assert.ok([2001, 4400].includes(adminChats.body.status_code), JSON.stringify(adminChats.body));
    for (const path of [`/teams/${TOO_BIG}`, `/users/${TOO_BIG}`, `/virtual-agents/${TOO_BIG}`]) {
      const res = await admin.get(path);
      assert.ok(res.status < 500, `${path}: ${JSON.stringify(res.body)}`);
    }
  });

  it('refuses an attachment URL a page could not decode (a % that starts no %XX escape), and keeps the good ones', async () => {
    for (const url of ['https://x.test/%E0%A4%A', 'https://x.test/100%', 'https://x.test/a%zz']) {
      const res = await botApi('POST', `/chats/${chatId}/messages`, {
        token: t.token,
        body: { type: 'outbound', text: 'see', attachment: { type: 'file', url } },
      });
      assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.status_code, 2000);
      assert.deepEqual(
        res.body.response.errors.map((e: { field: string }) => e.field),
        ['attachment.url'],
      );
    }
    const good = await botApi('POST', `/chats/${chatId}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'see', attachment: { type: 'file', url: 'https://x.test/r%C3%A9sum%C3%A9.pdf?a=1%2B2' } },
    });
    assert.equal(good.status, 201, JSON.stringify(good.body));
  });

  it('accepts a body-less admin POST sent with an empty JSON body', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const detail = await admin.get(`/chats/${chat.chat_id}`);
    const eventId = detail.body.response.events[0].id;
    for (const raw of ['', '{}']) {
      const res = await admin.request('POST', `/events/${eventId}/redeliver`, { raw, headers: { 'content-type': 'application/json' } });
      // The event is still pending (no delivery runs here): the refusal proves the body was accepted.
      assert.equal(res.body.status_code, 3008, `${JSON.stringify(raw)}: ${JSON.stringify(res.body)}`);
    }
    const broken = await admin.request('POST', `/events/${eventId}/redeliver`, {
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.body.status_code, 2006);
  });
});
