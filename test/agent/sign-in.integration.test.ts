import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { agentLogins, agentSessions, auditEntries } from '@/db/schema';
import { sha256 } from '@/platform/util/ids';
import { ApiClient } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { AGENT_PASSWORD, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('agent workspace: invite, sign-in and session safety', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let email: string;

  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    email = `${t.agent.loginId}@example.test`;
  });

  const inviteToken = async (userId = t.agent.id, body: unknown = { email }) => {
    const res = await admin.post(`/users/${userId}/invite`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const url = new URL(res.body.response.invite_url);
    assert.equal(url.pathname, '/agent/invite');
    return url.hash.slice(1);
  };

  it('invites with a one-time link whose token only the hash of is stored, then signs in with the password set there', async () => {
    const token = await inviteToken();
    const [row] = await ctx.db.select().from(agentLogins).where(eq(agentLogins.userId, t.agent.id));
    assert.equal(row.email, email);
    assert.equal(row.inviteTokenHash, sha256(token));
    assert.equal(row.passwordHash, null);
    assert.ok(row.inviteExpiresAt && row.inviteExpiresAt.getTime() > Date.now() + 71 * 3600_000);

    const weak = await new ApiClient('agent').post('/invite/accept', { token, password: 'password1234' });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.status_code, 3009);

    const client = new ApiClient('agent');
    const accepted = await client.post('/invite/accept', { token, password: AGENT_PASSWORD });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.response.login_id, t.agent.loginId);
    assert.deepEqual(
      accepted.body.response.teams.map((x: { id: number }) => x.id),
      [t.humanTeam.id],
    );
    const cookie = accepted.setCookies[0];
    assert.match(cookie, /^va_agent_session=[A-Za-z0-9_-]{43};/);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    const sessionToken = client.cookies.get('va_agent_session') as string;
    assert.equal((await ctx.db.select().from(agentSessions).where(eq(agentSessions.tokenHash, sessionToken))).length, 0);
    assert.equal(
      (
        await ctx.db
          .select()
          .from(agentSessions)
          .where(eq(agentSessions.tokenHash, sha256(sessionToken)))
      ).length,
      1,
    );

    const again = await new ApiClient('agent').post('/invite/accept', { token, password: AGENT_PASSWORD });
    assert.equal(again.status, 410);
    assert.equal(again.body.status_code, 2082);

    const fresh = new ApiClient('agent');
    const login = await fresh.login(email.toUpperCase(), AGENT_PASSWORD);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal((await fresh.get('/me')).body.response.email, email);
  });

  it('answers 2081 alike for a wrong password and an unknown email; an expired invite is 2082', async () => {
    const wrong = await new ApiClient('agent').login(email, 'not the password at all');
    const unknown = await new ApiClient('agent').login('nobody@example.test', AGENT_PASSWORD);
    for (const res of [wrong, unknown]) {
      assert.equal(res.status, 401);
      assert.equal(res.body.status_code, 2081);
      assert.deepEqual(res.setCookies, []);
    }
    const other = await createTenant(ctx.db);
    const otherAdmin = (await signedInAdminOf(ctx.db, other.account.id)).client;
    const res = await otherAdmin.post(`/users/${other.agent.id}/invite`, { email: `late-${other.agent.loginId}@example.test` });
    const token = new URL(res.body.response.invite_url).hash.slice(1);
    await ctx.db
      .update(agentLogins)
      .set({ inviteExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(agentLogins.userId, other.agent.id));
    const late = await new ApiClient('agent').post('/invite/accept', { token, password: AGENT_PASSWORD });
    assert.equal(late.body.status_code, 2082);
  });

  it('refuses a virtual agent (3008), an email another person uses (3004), and a user of another account (3006)', async () => {
    assert.equal((await admin.post(`/users/${t.bot.user.id}/invite`, {})).body.status_code, 3008);
    const other = await createTenant(ctx.db);
    assert.equal((await admin.post(`/users/${other.agent.id}/invite`, { email: 'x@example.test' })).body.status_code, 3006);
    const otherAdmin = (await signedInAdminOf(ctx.db, other.account.id)).client;
    const taken = await otherAdmin.post(`/users/${other.agent.id}/invite`, { email });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.status_code, 3004);
    const noEmail = await otherAdmin.post(`/users/${other.agent.id}/invite`, {});
    assert.equal(noEmail.status, 400);
    assert.equal(noEmail.body.status_code, 2000);
  });

  it('needs the workspace cookie (2080): none, an admin session, or a signed-out one open nothing', async () => {
    assert.equal((await new ApiClient('agent').get('/chats')).body.status_code, 2080);
    const withAdminCookie = await new ApiClient('agent').get('/me', { headers: { cookie: admin.cookieHeader() } });
    assert.equal(withAdminCookie.status, 401);
    assert.equal(withAdminCookie.body.status_code, 2080);
    const client = new ApiClient('agent');
    await client.login(email, AGENT_PASSWORD);
    const cookie = client.cookieHeader();
    assert.equal((await client.post('/logout')).status, 200);
    const after = await new ApiClient('agent').get('/me', { headers: { cookie } });
    assert.equal(after.body.status_code, 2080);
  });

  it('refuses a state change sent from another site (3003) and audits the person’s changes without their text', async () => {
    const client = new ApiClient('agent');
    await client.login(email, AGENT_PASSWORD);
    const crossSite = await client.put('/availability', { availability: 'available' }, { headers: { origin: 'https://evil.example' } });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.status_code, 3003);

    const chat = await newChat(t, { team_id: t.humanTeam.id });
    const picked = await client.post(`/chats/${chat.chat_id}/pick`);
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    const note = await client.post(`/chats/${chat.chat_id}/notes`, { text: 'customer card 4111 on file' });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    const entries = await ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.accountId, t.account.id), eq(auditEntries.userId, t.agent.id)));
    const actions = entries.map((e) => e.action);
    assert.ok(actions.includes('POST /agent/chats/:chat_id/pick'), actions.join());
    const noteEntry = entries.find((e) => e.action === 'POST /agent/chats/:chat_id/notes');
    assert.ok(noteEntry);
    assert.equal(noteEntry.adminEmail, `agent:${email}`);
    assert.equal(noteEntry.targetId, chat.chat_id);
    assert.deepEqual(noteEntry.fields, ['text']);
    assert.doesNotMatch(JSON.stringify(noteEntry), /4111/);
  });
});
