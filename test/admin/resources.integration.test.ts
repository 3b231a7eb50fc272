import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type ApiClient, botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin, signedInAdminOf } from '../support/people';
import { createTenant } from '../support/tenant';

const fields = (res: { body: { response: { errors: { field: string }[] } | null } }) => res.body.response?.errors.map((e) => e.field) ?? [];

describe('admin resources', () => {
  const ctx = setupTestDatabase();
  let admin: ApiClient;
  let other: ApiClient;
  before(async () => {
    admin = (await signedInAdmin(ctx.db)).client;
    other = (await signedInAdmin(ctx.db)).client;
  });

  describe('teams and skills', () => {
    it('creates a team with skills, returns its integer id and lists it with member counts', async () => {
      const created = await admin.post('/teams', { name: 'Support', auto_assign: true, skills: ['billing', 'sales', 'billing'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.status_code, 4401);
      const team = created.body.response;
      assert.ok(Number.isInteger(team.id));
      assert.equal(team.auto_assign, true);
      assert.deepEqual(
        team.skills.map((s: { name: string }) => s.name),
        ['billing', 'sales'],
      );
      assert.deepEqual(team.member_counts, { agent: 0, manager: 0, virtual_agent: 0, total: 0 });

      await admin.post('/users', { kind: 'agent', login_id: 'ann', name: 'Ann', team_ids: [team.id] });
      await admin.post('/users', { kind: 'manager', login_id: 'max', name: 'Max', team_ids: [team.id] });
      const list = await admin.get('/teams');
      assert.equal(list.status, 200);
      const listed = list.body.response.find((t: { id: number }) => t.id === team.id);
      assert.deepEqual(listed.member_counts, { agent: 1, manager: 1, virtual_agent: 0, total: 2 });
      assert.equal((await other.get('/teams')).body.response.length, 0, "another account's admin sees none");
    });

    it('answers 3004 for a team name in use, on create and on rename', async () => {
      await admin.post('/teams', { name: 'Dup A', auto_assign: false });
      const b = await admin.post('/teams', { name: 'Dup B', auto_assign: false });
      const again = await admin.post('/teams', { name: 'Dup A', auto_assign: false });
      assert.equal(again.status, 409);
      assert.equal(again.body.status_code, 3004);
      const rename = await admin.patch(`/teams/${b.body.response.id}`, { name: 'Dup A' });
      assert.equal(rename.body.status_code, 3004);
      assert.deepEqual(fields(rename), ['name']);
      const ok = await admin.patch(`/teams/${b.body.response.id}`, { name: 'Dup C', auto_assign: true });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.response.name, 'Dup C');
      assert.equal(ok.body.response.auto_assign, true);
    });

    it("adds and removes skills, and refuses another account's team with 3006", async () => {
      const team = (await admin.post('/teams', { name: 'Skills team', auto_assign: false })).body.response;
      const added = await admin.post(`/teams/${team.id}/skills`, { name: 'returns' });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.deepEqual({ ...added.body.response, id: 0 }, { id: 0, name: 'returns', team_id: team.id, team_name: 'Skills team' });
      assert.equal((await admin.post(`/teams/${team.id}/skills`, { name: 'returns' })).body.status_code, 3004);

      const skills = await admin.get('/skills');
      assert.ok(
        skills.body.response.some((s: { id: number; team_id: number }) => s.id === added.body.response.id && s.team_id === team.id),
      );

      assert.equal((await other.post(`/teams/${team.id}/skills`, { name: 'x' })).body.status_code, 3006);
      assert.equal((await other.patch(`/teams/${team.id}`, { name: 'mine now' })).body.status_code, 3006);
      assert.equal((await other.delete(`/teams/${team.id}/skills/${added.body.response.id}`)).body.status_code, 3006);

      const removed = await admin.delete(`/teams/${team.id}/skills/${added.body.response.id}`);
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal((await admin.delete(`/teams/${team.id}/skills/${added.body.response.id}`)).body.status_code, 3006);
    });

    it('keeps a skill a routing rule sends chats to (3008)', async () => {
      const team = (await admin.post('/teams', { name: 'Rule team', auto_assign: false, skills: ['vip'] })).body.response;
      await admin.post('/routing-rules', { name: 'VIPs', conditions: [], team_id: team.id, skill: 'vip' });
      const res = await admin.delete(`/teams/${team.id}/skills/${team.skills[0].id}`);
      assert.equal(res.status, 409);
      assert.equal(res.body.status_code, 3008);
    });

    it('answers 2014 for a non-numeric id', async () => {
      const res = await admin.patch('/teams/abc', { name: 'x' });
      assert.equal(res.body.status_code, 2014);
    });
  });

  describe('users', () => {
    it('creates agents and managers, lists them by kind and updates them', async () => {
      const team = (await admin.post('/teams', { name: 'Users team', auto_assign: true, skills: ['billing'] })).body.response;
      const created = await admin.post('/users', {
        kind: 'agent',
        login_id: 'bea',
        name: 'Bea',
        email: 'bea@example.test',
        availability: 'available',
        capacity: 5,
        team_ids: [team.id],
        skill_ids: [team.skills[0].id],
        custom_attributes: { language: 'fr' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const bea = created.body.response;
      assert.equal(bea.kind, 'agent');
      assert.equal(bea.availability, 'available');
      assert.equal(bea.capacity, 5);
      assert.deepEqual(bea.team_ids, [team.id]);
      assert.deepEqual(bea.skills, [{ id: team.skills[0].id, name: 'billing', team_id: team.id }]);

      const agents = await admin.get('/users?kind=agent');
      assert.ok(agents.body.response.every((u: { kind: string }) => u.kind === 'agent'));
      assert.ok(agents.body.response.some((u: { id: number }) => u.id === bea.id));
      assert.equal((await admin.get('/users?kind=robot')).body.status_code, 2001);

      const patched = await admin.patch(`/users/${bea.id}`, {
        availability: 'unavailable',
        skill_ids: [],
        team_ids: [],
        enabled: false,
        custom_attributes: {},
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.response.availability, 'unavailable');
      assert.equal(patched.body.response.enabled, false);
      assert.deepEqual(patched.body.response.team_ids, []);
      assert.deepEqual(patched.body.response.skills, []);
      assert.deepEqual(patched.body.response.custom_attributes, {});

      assert.equal((await admin.patch(`/users/${bea.id}`, { login_id: 'other' })).body.status_code, 3005);
      assert.equal((await other.patch(`/users/${bea.id}`, { name: 'x' })).body.status_code, 3006);
    });

    it('refuses team and skill IDs of another account, naming the field', async () => {
      const foreign = await other.post('/teams', { name: 'Foreign', auto_assign: false, skills: ['x'] });
      const teamRes = await admin.post('/users', { kind: 'agent', login_id: 'cy', name: 'Cy', team_ids: [foreign.body.response.id] });
      assert.equal(teamRes.status, 404);
      assert.equal(teamRes.body.status_code, 3006);
      assert.deepEqual(fields(teamRes), ['team_ids']);
      const skillRes = await admin.post('/users', {
        kind: 'agent',
        login_id: 'cy',
        name: 'Cy',
        skill_ids: [foreign.body.response.skills[0].id],
      });
      assert.equal(skillRes.body.status_code, 3006);
      assert.deepEqual(fields(skillRes), ['skill_ids']);
    });

    it('answers 3004 naming the field in use (login ID or name) and refuses virtual agents as users', async () => {
      await admin.post('/users', { kind: 'agent', login_id: 'dee', name: 'Dee' });
      const sameLogin = await admin.post('/users', { kind: 'manager', login_id: 'dee', name: 'Dee 2' });
      assert.equal(sameLogin.body.status_code, 3004);
      assert.deepEqual(fields(sameLogin), ['login_id']);
      const sameName = await admin.post('/users', { kind: 'agent', login_id: 'dee-2', name: 'Dee' });
      assert.equal(sameName.body.status_code, 3004);
      assert.deepEqual(fields(sameName), ['name']);
      const va = await admin.post('/users', { kind: 'virtual_agent', login_id: 'bot', name: 'Bot' });
      assert.equal(va.body.status_code, 2000);
      assert.deepEqual(fields(va), ['kind']);
    });
  });

  describe('assets', () => {
    it('creates assets with integer ids usable by the bot API, and lists them per account', async () => {
      const created = await admin.post('/assets', { channel: 'sms', name: 'Main number', address: '+15550000' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.ok(Number.isInteger(created.body.response.id));
      assert.deepEqual(
        { ...created.body.response, id: 0, created_at: '' },
        {
          id: 0,
          channel: 'sms',
          name: 'Main number',
          address: '+15550000',
          enabled: true,
          disabled_at: null,
          allowed_origins: [],
          widget: null,
          created_at: '',
        },
      );
      // A livechat asset carries its widget's install; allowed origins are set on livechat only.
      const chat = await admin.post('/assets', { channel: 'livechat', name: 'Site chat' });
      const id = chat.body.response.id;
      assert.deepEqual(chat.body.response.widget, {
        url: `http://localhost/chat/${id}`,
        embed_html: `<script src="http://localhost/widget.js?app=${id}" async></script>`,
        origin: 'http://localhost',
        origin_from: 'request',
      });
      const origins = await admin.patch(`/assets/${id}`, {
        allowed_origins: ['HTTPS://Shop.Example/', 'http://localhost:8080', 'https://shop.example'],
      });
      assert.equal(origins.status, 200, JSON.stringify(origins.body));
      assert.deepEqual(origins.body.response.allowed_origins, ['https://shop.example', 'http://localhost:8080']);
      const path = await admin.patch(`/assets/${id}`, { allowed_origins: ['https://shop.example/checkout'] });
      assert.equal(path.body.status_code, 2000);
      assert.equal(path.body.response.errors[0].field, 'allowed_origins.0');
      const notLivechat = await admin.patch(`/assets/${created.body.response.id}`, { allowed_origins: ['https://shop.example'] });
      assert.equal(notLivechat.status, 409);
      assert.equal(notLivechat.body.status_code, 3008);
      const list = await admin.get('/assets');
      assert.ok(list.body.response.assets.some((a: { id: number }) => a.id === created.body.response.id));
      assert.ok(!(await other.get('/assets')).body.response.assets.some((a: { id: number }) => a.id === created.body.response.id));
      assert.equal((await admin.post('/assets', { channel: 'fax', name: 'x' })).body.status_code, 2000);
    });

    it('lists assets a page at a time, found by part of the name or address, by channel and by state', async () => {
      const { client } = await signedInAdmin(ctx.db);
      const made: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await client.post('/assets', {
          channel: i % 2 ? 'sms' : 'email',
          name: i < 3 ? `Billing ${i}` : `Sales ${i}`,
          ...(i === 6 ? { address: 'promo_100%@example.test' } : {}),
        });
        made.push(res.body.response.id);
      }
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<ApiClient['get']>> = await client.get(`/assets?page_size=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.ok(page.body.response.assets.length <= 3);
        seen.push(...page.body.response.assets.map((a: { id: number }) => a.id));
        cursor = page.body.response.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, made, 'every asset once, by id');

      const ids = async (q: string) => (await client.get(`/assets?${q}`)).body.response.assets.map((a: { id: number }) => a.id);
      assert.deepEqual(await ids('q=billING'), made.slice(0, 3), 'any case');
      assert.deepEqual(await ids('q=billing&channel=sms'), [made[1]]);
      // LIKE's wildcards in the search are taken literally.
      assert.deepEqual(await ids(`q=${encodeURIComponent('_100%')}`), [made[6]]);
      assert.deepEqual(await ids('q=%25'), [made[6]]);

      const disabled = await client.patch(`/assets/${made[0]}`, { enabled: false });
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      assert.equal(disabled.body.response.enabled, false);
      const since = disabled.body.response.disabled_at;
      assert.ok(since);
      // Sent again, the first time stays.
      assert.equal((await client.patch(`/assets/${made[0]}`, { enabled: false, name: 'Billing old' })).body.response.disabled_at, since);
      assert.deepEqual(await ids('enabled=false'), [made[0]]);
      assert.deepEqual(await ids('enabled=true&q=billing'), made.slice(1, 3));
      const enabled = await client.patch(`/assets/${made[0]}`, { enabled: true });
      assert.deepEqual([enabled.body.response.enabled, enabled.body.response.disabled_at], [true, null]);

      for (const bad of ['page_size=0', 'page_size=101', 'enabled=yes', 'channel=fax', 'cursor=notours', 'q=', 'color=red']) {
        const res = await client.get(`/assets?${bad}`);
        assert.equal(res.body.status_code, 2001, `${bad}: ${JSON.stringify(res.body)}`);
      }
      assert.equal((await client.patch(`/assets/${made[0]}`, { enabled: 'no' })).body.status_code, 2000);
    });
  });

  describe('routing rules', () => {
    it('creates, orders, updates and deletes rules, and routes chats by them', async () => {
      const tenant = await createTenant(ctx.db);
      const client = (await signedInAdminOf(ctx.db, tenant.account.id)).client;
      const first = await client.post('/routing-rules', {
        name: 'Email to humans',
        conditions: [{ field: 'channel', op: 'equals', value: 'email' }],
        team_id: tenant.humanTeam.id,
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const second = await client.post('/routing-rules', {
        name: 'VIP numbers',
        conditions: [{ field: 'customer.destination_id', op: 'in', value: ['+1555VIP'] }],
        team_id: tenant.botTeam.id,
        skill: 'sales',
        position: 0,
      });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      assert.equal(first.body.response.position, 0);

      const list = await client.get('/routing-rules');
      assert.deepEqual(
        list.body.response.map((r: { name: string }) => r.name),
        ['Email to humans', 'VIP numbers'],
        'same position: oldest first',
      );
      const moved = await client.patch(`/routing-rules/${first.body.response.id}`, { position: 5 });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const reordered = await client.get('/routing-rules');
      assert.deepEqual(
        reordered.body.response.map((r: { name: string }) => r.name),
        ['VIP numbers', 'Email to humans'],
      );

      const chat = await botApi('POST', '/chats', {
        token: tenant.token,
        body: { channel: 'email', asset_id: tenant.assets.email.id, customer: { destination_id: 'a@b.test' } },
      });
      assert.equal(chat.body.response.team_id, tenant.humanTeam.id);

      const del = await client.delete(`/routing-rules/${first.body.response.id}`);
      assert.equal(del.status, 200);
      assert.equal((await client.delete(`/routing-rules/${first.body.response.id}`)).body.status_code, 3006);
    });

    it('checks conditions, team and skill', async () => {
      const team = (await admin.post('/teams', { name: 'Routing checks', auto_assign: false })).body.response;
      const badField = await admin.post('/routing-rules', {
        name: 'x',
        conditions: [{ field: 'password', op: 'equals', value: 'x' }],
        team_id: team.id,
      });
      assert.equal(badField.body.status_code, 2000);
      assert.deepEqual(fields(badField), ['conditions.0.field']);
      const badValue = await admin.post('/routing-rules', {
        name: 'x',
        conditions: [{ field: 'channel', op: 'in', value: 'sms' }],
        team_id: team.id,
      });
      assert.deepEqual(fields(badValue), ['conditions.0.value']);
      const badSkill = await admin.post('/routing-rules', { name: 'x', conditions: [], team_id: team.id, skill: 'nope' });
      assert.equal(badSkill.body.status_code, 2034);
      const foreignTeam = (await other.post('/teams', { name: 'Theirs', auto_assign: false })).body.response;
      const badTeam = await admin.post('/routing-rules', { name: 'x', conditions: [], team_id: foreignTeam.id });
      assert.equal(badTeam.body.status_code, 3006);
      assert.deepEqual(fields(badTeam), ['team_id']);
    });

    it('sets the default team, which then receives unmatched chats', async () => {
      const tenant = await createTenant(ctx.db);
      const client = (await signedInAdminOf(ctx.db, tenant.account.id)).client;
      const res = await client.put('/default-team', { team_id: tenant.humanTeam.id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.response, { default_team_id: tenant.humanTeam.id, team_name: 'Humans' });
      assert.equal((await client.get('/me')).body.response.account.default_team_id, tenant.humanTeam.id);
      const chat = await botApi('POST', '/chats', {
        token: tenant.token,
        body: { channel: 'sms', asset_id: tenant.assets.sms.id, customer: { destination_id: '+15550123' } },
      });
      assert.equal(chat.body.response.team_id, tenant.humanTeam.id);
      const foreign = await admin.put('/default-team', { team_id: tenant.humanTeam.id });
      assert.equal(foreign.body.status_code, 3006);
    });
  });
});
