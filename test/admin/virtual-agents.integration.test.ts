import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type ApiClient, botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { signedInAdmin } from '../support/people';

const fields = (res: { body: { response: { errors: { field: string }[] } | null } }) => res.body.response?.errors.map((e) => e.field) ?? [];

describe('admin virtual agents', () => {
  const ctx = setupTestDatabase();
  let admin: ApiClient;
  let other: ApiClient;
  let team: { id: number };
  let otherTeam: { id: number };
  let n = 0;
  const vaBody = (extra: Record<string, unknown> = {}) => ({
    name: `Helper ${++n}`,
    description: 'Answers first',
    webhook_url: 'http://127.0.0.1:9/hook',
    webhook_headers: { Authorization: 'Bearer abc' },
    subscriptions: ['chat.assigned', 'message.received'],
    team_id: team.id,
    skills: ['billing'],
    custom_attributes: { tier: 'gold' },
    ...extra,
  });

  before(async () => {
    admin = (await signedInAdmin(ctx.db)).client;
    other = (await signedInAdmin(ctx.db)).client;
    team = (await admin.post('/teams', { name: 'Bots', auto_assign: false, skills: ['billing', 'sales'] })).body.response;
    otherTeam = (await admin.post('/teams', { name: 'Bots 2', auto_assign: false, skills: ['billing'] })).body.response;
  });

  it('registers a VA and returns its id, login id, API key and signing secret once', async () => {
    const res = await admin.post('/virtual-agents', vaBody({ name: 'Billing Bot' }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status_code, 4401);
    const va = res.body.response;
    assert.ok(Number.isInteger(va.id));
    assert.equal(va.login_id, 'va-billing-bot');
    assert.match(va.api_key, /^vak_/);
    assert.match(va.signing_secret, /^whsec_/);
    assert.equal(va.team_id, team.id);
    assert.equal(va.team_name, 'Bots');
    assert.deepEqual(va.skills, ['billing']);
    assert.deepEqual(va.webhook_headers, { Authorization: 'Bearer abc' });
    assert.deepEqual(va.custom_attributes, { tier: 'gold' });
    assert.equal(va.api_key_prefix, va.api_key.slice(0, 8));

    const one = await admin.get(`/virtual-agents/${va.id}`);
    const list = await admin.get('/virtual-agents');
    assert.equal(one.status, 200);
    assert.ok(list.body.response.some((v: { id: number }) => v.id === va.id));
    for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
      assert.ok(!text.includes(va.api_key), 'the API key is never shown again');
      assert.ok(!text.includes(va.signing_secret), 'the signing secret is never shown again');
      assert.ok(!text.includes('"api_key"') && !text.includes('"signing_secret"'));
    }
    const asUser = (await admin.get('/users?kind=virtual_agent')).body.response.find((u: { id: number }) => u.id === va.id);
    assert.deepEqual(asUser.team_ids, [team.id]);
  });

  it('issues an API key that the bot API accepts', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    const auth = await botApi('POST', '/authorize', { body: { api_key: va.api_key } });
    assert.equal(auth.status, 200, JSON.stringify(auth.body));
    const teams = await botApi('GET', '/teams', { token: auth.body.response.access_token });
    assert.equal(teams.status, 200);
    assert.ok(teams.body.response.some((t: { team_id: number }) => t.team_id === team.id));
  });

  it('answers 3004 for a name in use', async () => {
    await admin.post('/virtual-agents', vaBody({ name: 'Twin' }));
    const res = await admin.post('/virtual-agents', vaBody({ name: 'Twin' }));
    assert.equal(res.status, 409);
    assert.equal(res.body.status_code, 3004);
    assert.deepEqual(fields(res), ['name']);
  });

  it('refuses to change name or description with 3005 naming the field', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    for (const field of ['name', 'description']) {
      const res = await admin.patch(`/virtual-agents/${va.id}`, { [field]: 'changed' });
      assert.equal(res.status, 400);
      assert.equal(res.body.status_code, 3005, field);
      assert.deepEqual(fields(res), [field]);
    }
    assert.equal((await admin.get(`/virtual-agents/${va.id}`)).body.response.name, va.name);
  });

  it('refuses reserved and malformed static headers with 2000, one error per header', async () => {
    const res = await admin.post(
      '/virtual-agents',
      vaBody({ webhook_headers: { 'Webhook-Signature': 'v1,forged', Host: 'x', 'X-Fine': 'ok' } }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2000);
    assert.deepEqual(fields(res).sort(), ['webhook_headers.Host', 'webhook_headers.Webhook-Signature']);
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    const patch = await admin.patch(`/virtual-agents/${va.id}`, { webhook_headers: { 'Content-Type': 'text/plain' } });
    assert.equal(patch.body.status_code, 2000);
    assert.deepEqual(fields(patch), ['webhook_headers.Content-Type']);
  });

  it('checks subscriptions, team and skills', async () => {
    assert.deepEqual(fields(await admin.post('/virtual-agents', vaBody({ subscriptions: [] }))), ['subscriptions']);
    assert.deepEqual(fields(await admin.post('/virtual-agents', vaBody({ subscriptions: ['chat.deleted'] }))), ['subscriptions.0']);
    const foreign = (await other.post('/teams', { name: 'Theirs', auto_assign: false })).body.response;
    const badTeam = await admin.post('/virtual-agents', vaBody({ team_id: foreign.id }));
    assert.equal(badTeam.body.status_code, 3006);
    assert.deepEqual(fields(badTeam), ['team_id']);
    const badSkill = await admin.post('/virtual-agents', vaBody({ skills: ['billing', 'astrology'] }));
    assert.equal(badSkill.body.status_code, 2034);
    assert.deepEqual(fields(badSkill), ['skills.1']);
  });

  it('updates webhook, subscriptions, team, skills, attributes and fallback', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    const res = await admin.patch(`/virtual-agents/${va.id}`, {
      webhook_url: 'http://127.0.0.1:10/other',
      webhook_headers: {},
      subscriptions: ['chat.closed', 'chat.closed'],
      team_id: otherTeam.id,
      custom_attributes: { tier: 'silver' },
      fallback_team_id: team.id,
      fallback_skill: 'sales',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const updated = res.body.response;
    assert.equal(updated.webhook_url, 'http://127.0.0.1:10/other');
    assert.deepEqual(updated.webhook_headers, {});
    assert.deepEqual(updated.subscriptions, ['chat.closed']);
    assert.equal(updated.team_id, otherTeam.id);
    assert.deepEqual(updated.skills, ['billing'], 'same-named skill of the new team kept');
    assert.deepEqual(updated.custom_attributes, { tier: 'silver' });
    assert.equal(updated.fallback_team_id, team.id);
    assert.equal(updated.fallback_skill, 'sales');

    const asUser = (await admin.get('/users?kind=virtual_agent')).body.response.find((u: { id: number }) => u.id === va.id);
    assert.deepEqual(asUser.team_ids, [otherTeam.id], 'exactly one team membership');
    assert.equal(
      (await admin.patch(`/virtual-agents/${va.id}`, { skills: ['sales'] })).body.status_code,
      2034,
      'sales is not in the new team',
    );
    assert.equal((await admin.patch(`/virtual-agents/${va.id}`, { fallback_skill: 'nope' })).body.status_code, 2034);
  });

  it('disabling a VA stops its API key', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    assert.equal((await admin.patch(`/virtual-agents/${va.id}`, { enabled: false })).body.response.enabled, false);
    const auth = await botApi('POST', '/authorize', { body: { api_key: va.api_key } });
    assert.equal(auth.body.status_code, 2005);
  });

  it('rotating the key revokes the old key and every token issued with it', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    const oldToken = (await botApi('POST', '/authorize', { body: { api_key: va.api_key } })).body.response.access_token;
    assert.equal((await botApi('GET', '/teams', { token: oldToken })).status, 200);

    const rotated = await admin.post(`/virtual-agents/${va.id}/rotate-key`);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.match(rotated.body.response.api_key, /^vak_/);
    assert.notEqual(rotated.body.response.api_key, va.api_key);

    assert.equal((await botApi('GET', '/teams', { token: oldToken })).body.status_code, 2003);
    assert.equal((await botApi('POST', '/authorize', { body: { api_key: va.api_key } })).body.status_code, 2005);
    const fresh = await botApi('POST', '/authorize', { body: { api_key: rotated.body.response.api_key } });
    assert.equal(fresh.status, 200);
    assert.equal((await admin.get(`/virtual-agents/${va.id}`)).body.response.api_key_prefix, rotated.body.response.api_key_prefix);
  });

  it('rotates the signing secret and shows it only once', async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    const rotated = await admin.post(`/virtual-agents/${va.id}/rotate-secret`);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.match(rotated.body.response.signing_secret, /^whsec_/);
    assert.notEqual(rotated.body.response.signing_secret, va.signing_secret);
    assert.ok(!JSON.stringify((await admin.get(`/virtual-agents/${va.id}`)).body).includes(rotated.body.response.signing_secret));
  });

  it("keeps another account's administrator out (3006)", async () => {
    const va = (await admin.post('/virtual-agents', vaBody())).body.response;
    assert.equal((await other.get(`/virtual-agents/${va.id}`)).body.status_code, 3006);
    assert.equal((await other.patch(`/virtual-agents/${va.id}`, { enabled: false })).body.status_code, 3006);
    assert.equal((await other.post(`/virtual-agents/${va.id}/rotate-key`)).body.status_code, 3006);
    assert.equal((await other.post(`/virtual-agents/${va.id}/rotate-secret`)).body.status_code, 3006);
    assert.ok(!(await other.get('/virtual-agents')).body.response.some((v: { id: number }) => v.id === va.id));
    assert.equal((await admin.get(`/virtual-agents/${va.id}`)).body.response.enabled, true);
    assert.equal((await botApi('POST', '/authorize', { body: { api_key: va.api_key } })).status, 200, 'key untouched');
  });

  describe('with private webhook addresses refused (WEBHOOK_ALLOW_PRIVATE=false)', () => {
    useEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });

    it('refuses link-local, loopback and plain-http webhook URLs with 3007 on webhook_url', async () => {
      for (const url of [
        'https://169.254.169.254/latest/meta-data',
        'https://127.0.0.1/hook',
        'https://[::1]/hook',
        'http://93.184.216.34/hook',
        'not a url',
      ]) {
        const res = await admin.post('/virtual-agents', vaBody({ webhook_url: url }));
        assert.equal(res.status, 400, url);
        assert.equal(res.body.status_code, 3007, url);
        assert.deepEqual(fields(res), ['webhook_url'], url);
      }
      const metadata = await admin.post('/virtual-agents', vaBody({ webhook_url: 'https://169.254.169.254/' }));
      assert.match(metadata.body.description, /169\.254\.169\.254 is a private, loopback, link-local or reserved address/);
    });

    it('refuses them on update too, and accepts a public https address', async () => {
      const ok = await admin.post('/virtual-agents', vaBody({ webhook_url: 'https://93.184.216.34/hook' }));
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const res = await admin.patch(`/virtual-agents/${ok.body.response.id}`, { webhook_url: 'https://10.0.0.5/hook' });
      assert.equal(res.body.status_code, 3007);
      assert.equal((await admin.get(`/virtual-agents/${ok.body.response.id}`)).body.response.webhook_url, 'https://93.184.216.34/hook');
    });
  });
});
