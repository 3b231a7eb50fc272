import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { tenantWithReceiverEach } from '../delivery/helpers';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

const fields = (res: { body: { response: { errors?: { field: string }[] } | null } }) =>
  res.body.response?.errors?.map((e) => e.field) ?? [];

describe('handover settings of a VA in the admin API: max_handovers_per_chat and person_request', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let person: ApiClient;
  tenantWithReceiverEach(ctx, (fresh) => ({ t } = fresh));
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    person = (await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: `s-${t.agent.id}` })).client;
  });

  it('shows the defaults, takes both at registration and on update, and refuses values out of range naming the field', async () => {
    const shown = (await admin.get(`/virtual-agents/${t.bot.user.id}`)).body.response;
    assert.deepEqual([shown.max_handovers_per_chat, shown.person_request], [3, 'fallback']);

    const made = await admin.post('/virtual-agents', {
      name: `Settings bot ${t.agent.id}`,
      description: 'hands over',
      delivery_mode: 'pull',
      team_id: t.botTeam.id,
      max_handovers_per_chat: 5,
      person_request: 'bot',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual([made.body.response.max_handovers_per_chat, made.body.response.person_request], [5, 'bot']);

    const changed = await admin.patch(`/virtual-agents/${t.bot.user.id}`, { max_handovers_per_chat: 1, person_request: 'bot' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.response.max_handovers_per_chat, changed.body.response.person_request], [1, 'bot']);
    const kept = await admin.patch(`/virtual-agents/${t.bot.user.id}`, { turn_window_ms: 0 });
    assert.deepEqual([kept.body.response.max_handovers_per_chat, kept.body.response.person_request], [1, 'bot']);

    for (const bad of [
      { max_handovers_per_chat: 0 },
      { max_handovers_per_chat: 21 },
      { max_handovers_per_chat: 2.5 },
      { person_request: 'human' },
    ]) {
      const res = await admin.patch(`/virtual-agents/${t.bot.user.id}`, bad);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(fields(res), Object.keys(bad), JSON.stringify(res.body));
    }
  });

  it('holds a limit set through the admin API: with 1, the first handover is the last and the hand-back is 2120', async () => {
    assert.equal((await admin.patch(`/virtual-agents/${t.bot.user.id}`, { max_handovers_per_chat: 1 })).status, 200);
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const moved = await botApi('PATCH', `/internal/chats/${chat.chat_id}`, {
      token: t.token,
      body: { transfer: { teamid: t.humanTeam.id } },
    });
    assert.equal(moved.status, 202, JSON.stringify(moved.body));
    assert.equal((await person.post(`/chats/${chat.chat_id}/pick`)).status, 200);
    const card = (await person.get(`/chats/${chat.chat_id}`)).body.response.handover;
    assert.deepEqual([card.handovers, card.max_handovers, card.can_hand_back], [1, 1, false]);
    const back = await person.post(`/chats/${chat.chat_id}/hand-back`, {});
    assert.equal(back.body.status_code, 2120, JSON.stringify(back.body));
  });
});
