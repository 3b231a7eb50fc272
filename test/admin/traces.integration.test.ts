import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { botRequests, events } from '@/db/schema';
import { flushRequestLog } from '@/lib/request-log/request-log';
import { successRecorded } from '@/lib/request-log/sampling';
import { retentionJobs } from '@/lib/retention/jobs';
import { runRetention } from '@/lib/retention/run-retention';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { signedInAdminOf } from '../support/people';
import { createTenant } from '../support/tenant';

const SECRET_TEXT = 'Customer text: my card is 4111 1111 1111 1111';

describe('support traces: the bot request log and the trace look-up', () => {
  const ctx = setupTestDatabase();

  /** A bot conversation with a few failed calls, and every id a bot developer would quote. */
  async function conversation() {
    const t = await createTenant(ctx.db);
    const { client: admin } = await signedInAdminOf(ctx.db, t.account.id);
    const tag = randomBytes(4).toString('hex');
    const chatKey = `create-${tag}`;
    const chat = await botApi('POST', '/chats', {
      token: t.token,
      headers: { 'Idempotency-Key': chatKey },
      body: {
        channel: 'sms',
        asset_id: t.assets.sms.id,
        customer: { destination_id: `+1555${tag.slice(0, 6)}`, name: 'Ann Private' },
        assignee: t.bot.user.loginId,
        alias_id: `alias-${tag}`,
      },
    });
    assert.equal(chat.status, 201, JSON.stringify(chat.body));
    const chatId: string = chat.body.response.chat_id;
    const replyKey = `reply-${tag}`;
    const reply = await botApi('POST', `/chats/${chatId}/messages`, {
      token: t.token,
      headers: { 'Idempotency-Key': replyKey },
      body: { type: 'outbound', text: SECRET_TEXT },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const failedPatch = await patchChat(t, chatId, { tags: ['billing'] }, t.humanTeam.id);
    assert.equal(failedPatch.body.status_code, 2031, JSON.stringify(failedPatch.body));
    const badBody = await patchChat(t, chatId, { status: SECRET_TEXT });
    assert.equal(badBody.status, 400);
    const missing = await botApi('GET', `/chats/no-such-chat-${tag}?status=closed&cursor=${encodeURIComponent(SECRET_TEXT)}`, {
      token: t.token,
    });
    const [event] = await ctx.db.select().from(events).where(eq(events.chatId, chatId));
    assert.ok(event, 'assigning the chat to the VA wrote an event');
    await flushRequestLog();
    return {
      t,
      admin,
      chatId,
      aliasId: `alias-${tag}`,
      chatKey,
      replyKey,
      transid: reply.body.response.transid as string,
      event,
      failedPatchTrxid: failedPatch.headers.get('trxid') as string,
      badBodyTrxid: badBody.headers.get('trxid') as string,
      missingTrxid: missing.headers.get('trxid') as string,
    };
  }

  it('finds each kind of id, says what it is and links to it on the chat page', async () => {
    const c = await conversation();
    const find = async (id: string) => {
      const res = await c.admin.get(`/trace?id=${encodeURIComponent(id)}`);
      assert.equal(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
      return res.body.response.matches as Record<string, unknown>[];
    };
    const chatPath = `/admin/chats/${c.chatId}`;

    const [chat] = await find(c.chatId);
    assert.equal(chat.kind, 'chat');
    assert.equal(chat.link, chatPath);

    const [alias] = await find(c.aliasId);
    assert.deepEqual([alias.kind, alias.chat_id, alias.link], ['alias_id', c.chatId, chatPath]);

    const [message] = await find(c.transid);
    assert.deepEqual([message.kind, message.chat_id, message.message_transid], ['message', c.chatId, c.transid]);
    assert.equal(message.link, `${chatPath}?focus=${encodeURIComponent(`message:${c.transid}`)}`);

    const [event] = await find(c.event.transactionId);
    assert.deepEqual([event.kind, event.chat_id, event.event_id], ['event', c.chatId, c.event.id]);
    assert.equal(event.link, `${chatPath}?focus=${encodeURIComponent(`event:${c.event.id}`)}`);

    const [request] = await find(c.failedPatchTrxid);
    assert.equal(request.kind, 'request');
    assert.equal(request.chat_id, c.chatId);
    assert.match(String(request.summary), new RegExp(`^PATCH /api/v1/chats/${c.chatId} by ${c.t.bot.user.loginId} → 2031`));
    assert.equal(request.request_id, c.failedPatchTrxid, 'a logged call is named by its trxid');
    assert.equal(request.link, `${chatPath}?focus=${encodeURIComponent(`request:${c.failedPatchTrxid}`)}`);
    // A trxid pasted in capitals is the same trxid.
    const [shouted] = await find(c.failedPatchTrxid.toUpperCase());
    assert.equal(shouted?.request_id, c.failedPatchTrxid);

    const created = await find(c.chatKey);
    assert.deepEqual(
      created.map((m) => [m.kind, m.chat_id]),
      [['idempotency_key', c.chatId]],
    );
    const replied = await find(c.replyKey);
    assert.equal(replied[0].kind, 'idempotency_key');
    assert.equal(replied[0].chat_id, c.chatId);

    // A request about no chat links to the VA's request log, filtered to it.
    const teams = await botApi('GET', '/teams', { token: c.t.token });
    await flushRequestLog();
    const [list] = await find(teams.headers.get('trxid') as string);
    assert.equal(list.chat_id, null);
    assert.equal(list.link, `/admin/virtual-agents/${c.t.bot.user.id}?trxid=${teams.headers.get('trxid')}`);

    // So does a call about a chat ID that is no chat of the account: no chat page could show it.
    const [missing] = await find(c.missingTrxid);
    assert.equal(missing.kind, 'request');
    assert.equal(missing.chat_id, null);
    assert.match(String(missing.summary), /^GET \/api\/v1\/chats\/no-such-chat-\w+\?status&cursor by .* → 2031/);
    assert.equal(missing.link, `/admin/virtual-agents/${c.t.bot.user.id}?trxid=${c.missingTrxid}`);
    // The VA's request log lists that call with its path, and no chat to open.
    const [listed] = (await c.admin.get(`/bot-requests?trxid=${c.missingTrxid}`)).body.response.requests;
    assert.equal(listed.chat_id, null);
    assert.match(listed.path, /^\/api\/v1\/chats\/no-such-chat-/);
    const [patched] = (await c.admin.get(`/bot-requests?trxid=${c.failedPatchTrxid}`)).body.response.requests;
    assert.equal(patched.chat_id, c.chatId);
  });

  it("answers another account's ids exactly as unknown ones", async () => {
    const c = await conversation();
    const stranger = await createTenant(ctx.db);
    const { client: other } = await signedInAdminOf(ctx.db, stranger.account.id);
    const unknownId = randomBytes(8).toString('hex');
    const unknown = await other.get(`/trace?id=${unknownId}`);
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body.response, {
      id: unknownId,
      matches: [],
      recording: { successes: 'all', sample_rate: 1, chat_successes_recorded: null },
    });
    for (const id of [c.chatId, c.aliasId, c.transid, c.event.transactionId, c.failedPatchTrxid, c.chatKey, c.replyKey]) {
      const res = await other.get(`/trace?id=${encodeURIComponent(id)}`);
      assert.equal(res.status, 200, id);
      assert.deepEqual(
        res.body,
        { ...unknown.body, response: { ...unknown.body.response, id } },
        `${id}: the same answer as an unknown id`,
      );
      assert.ok(
        (await c.admin.get(`/trace?id=${encodeURIComponent(id)}`)).body.response.matches.length > 0,
        `${id} is found in its own account`,
      );
    }
    const theirs = await other.get(`/bot-requests?chat_id=${c.chatId}`);
    assert.deepEqual(theirs.body.response.requests, []);
    const byVa = await other.get(`/bot-requests?virtual_agent_id=${c.t.bot.user.id}`);
    assert.deepEqual(byVa.body.response.requests, []);
    // Their bot asking for this account's chat: their trace of that call does not link to a chat of ours.
    const probe = await botApi('GET', `/chats/${c.chatId}`, { token: stranger.token });
    assert.equal(probe.body.status_code, 2031);
    await flushRequestLog();
    const [probed] = (await other.get(`/trace?id=${probe.headers.get('trxid')}`)).body.response.matches;
    assert.equal(probed.chat_id, null);
    assert.equal(probed.link, `/admin/virtual-agents/${stranger.bot.user.id}?trxid=${probe.headers.get('trxid')}`);
  });

  it('records failures with code, description and trxid, and never bodies, tokens, keys or customer text', async () => {
    const c = await conversation();
    const log = await c.admin.get(`/bot-requests?virtual_agent_id=${c.t.bot.user.id}&outcome=failure`);
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const byTrxid = new Map(log.body.response.requests.map((r: { trxid: string }) => [r.trxid, r]));
    const patch = byTrxid.get(c.failedPatchTrxid) as Record<string, unknown>;
    assert.equal(patch.operation, 'updateChat');
    assert.equal(patch.method, 'PATCH');
    assert.equal(patch.path, `/api/v1/chats/${c.chatId}`);
    assert.equal(patch.http_status, 404);
    assert.equal(patch.status_code, 2031);
    assert.equal(patch.description, 'Given chat ID does not exist');
    const bad = byTrxid.get(c.badBodyTrxid) as Record<string, unknown>;
    assert.equal(bad.status_code, 2000);
    assert.equal(bad.description, 'Invalid request body: status', 'the refused field is named, its value is not');
    const missing = byTrxid.get(c.missingTrxid) as Record<string, unknown>;
    assert.equal(missing.path, `/api/v1/chats/no-such-chat-${c.aliasId.slice(6)}?status&cursor`, 'query parameters by name only');

    const all = await c.admin.get(`/bot-requests?chat_id=${c.chatId}`);
    const operations = all.body.response.requests.map((r: { operation: string }) => r.operation);
    assert.deepEqual(operations, ['updateChat', 'updateChat', 'postMessage', 'createChat'], 'newest first, successes too');
    const reply = all.body.response.requests[2];
    assert.deepEqual([reply.status_code, reply.idempotency_key], [4306, c.replyKey]);

    const stored = JSON.stringify(await ctx.db.select().from(botRequests));
    // The card number's pieces with their space: a bare '4111' also turns up by chance in ids and timestamps.
    for (const secret of [SECRET_TEXT, 'Ann Private', c.t.token, c.t.bot.apiKey, '4111 1111', 'my card']) {
      assert.ok(!stored.includes(secret), `the log holds no ${secret.slice(0, 12)}…`);
    }

    const filtered = await c.admin.get(`/bot-requests?virtual_agent_id=${c.t.bot.user.id}&status_code=2031&operation=updateChat`);
    assert.deepEqual(
      filtered.body.response.requests.map((r: { trxid: string }) => r.trxid),
      [c.failedPatchTrxid],
    );
    const paged = await c.admin.get(`/bot-requests?chat_id=${c.chatId}&page_size=3`);
    const next = await c.admin.get(`/bot-requests?chat_id=${c.chatId}&page_size=3&cursor=${paged.body.response.next_cursor}`);
    assert.equal(next.body.response.requests[0].operation, 'createChat');
    assert.equal((await c.admin.get('/bot-requests')).body.status_code, 2001, 'a VA, a chat or a trxid is required');
    // Something not shaped like a trxid matches nothing (the column is a uuid: it must not be asked).
    const odd = await c.admin.get(`/bot-requests?trxid=${encodeURIComponent("not-a-trxid'")}`);
    assert.deepEqual([odd.status, odd.body.response.requests], [200, []]);
    assert.deepEqual((await c.admin.get(`/trace?id=${encodeURIComponent('0199-not-a-uuid')}`)).body.response.matches, []);
    // A cursor this API did not give (the old (at, id) form, or any text) is a 2001.
    const oldCursor = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 5])).toString('base64url');
    assert.equal((await c.admin.get(`/bot-requests?chat_id=${c.chatId}&cursor=${oldCursor}`)).body.status_code, 2001);

    // A time window: the failed PATCH's own millisecond, from its trxid, finds it and only calls of that time.
    const vaLog = (await c.admin.get(`/bot-requests?virtual_agent_id=${c.t.bot.user.id}&page_size=100`)).body.response.requests as {
      trxid: string;
      at: string;
    }[];
    const patchAt = vaLog.find((r) => r.trxid === c.failedPatchTrxid)?.at as string;
    const ms = Date.parse(patchAt);
    assert.equal(ms, Number.parseInt(c.failedPatchTrxid.replace('-', '').slice(0, 12), 16), '`at` is the time in the trxid');
    const windowed = (
      await c.admin.get(
        `/bot-requests?virtual_agent_id=${c.t.bot.user.id}&since=${new Date(ms).toISOString()}&until=${new Date(ms + 1).toISOString()}`,
      )
    ).body.response.requests as { trxid: string; at: string }[];
    assert.ok(windowed.some((r) => r.trxid === c.failedPatchTrxid));
    assert.deepEqual(
      windowed.map((r) => r.at),
      windowed.map(() => patchAt),
    );
    const before = (
      await c.admin.get(`/bot-requests?virtual_agent_id=${c.t.bot.user.id}&until=${new Date(ms).toISOString()}&page_size=100`)
    ).body.response.requests as { at: string }[];
    assert.ok(before.every((r) => Date.parse(r.at) < ms));
    assert.equal(before.length, vaLog.filter((r) => Date.parse(r.at) < ms).length);
  });

  it('records a refused request whose field names hold NUL or a lone surrogate, with the rest of its batch', async () => {
    const t = await createTenant(ctx.db);
    const chat = await newChat(t);
    const odd = await botApi('PATCH', `/chats/${chat.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { 'k\u0000': 1, '\ud800': 2 },
    });
    assert.equal(odd.status, 400, JSON.stringify(odd.body));
    const fine = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    await flushRequestLog();
    const rows = await ctx.db.select().from(botRequests).where(eq(botRequests.chatId, chat.chat_id));
    const byTrxid = new Map(rows.map((r) => [r.trxid, r]));
    assert.ok(byTrxid.has(fine.headers.get('trxid') as string), 'the batch was written');
    const refused = byTrxid.get(odd.headers.get('trxid') as string);
    assert.ok(refused, 'the refused request was written');
    assert.ok(!refused.description.includes('\u0000'), refused.description);
  });

  it('records every one of many concurrent requests', async () => {
    const t = await createTenant(ctx.db);
    const chat = await newChat(t);
    const answers = await Promise.all(Array.from({ length: 60 }, () => botApi('GET', `/chats/${chat.chat_id}`, { token: t.token })));
    assert.ok(answers.every((a) => a.status === 200));
    await flushRequestLog();
    const trxids = new Set(answers.map((a) => a.headers.get('trxid')));
    const rows = await ctx.db.select({ trxid: botRequests.trxid }).from(botRequests).where(eq(botRequests.chatId, chat.chat_id));
    const logged = new Set(rows.map((r) => r.trxid));
    for (const trxid of trxids) assert.ok(logged.has(trxid as string), `request ${trxid} logged`);
  });

  it('deletes rows older than the retention period', async () => {
    const t = await createTenant(ctx.db);
    await botApi('GET', '/teams', { token: t.token });
    await flushRequestLog();
    const before = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(botRequests))[0].n;
    assert.ok(before > 0);
    const defaults = {
      EVENT_RETENTION_DAYS: 30,
      FAILED_EVENT_RETENTION_DAYS: 90,
      CHAT_RETENTION_DAYS: undefined,
      ROLLUP_RETENTION_DAYS: 90,
      AUDIT_RETENTION_DAYS: 365,
      BOT_REQUEST_LOG_RETENTION_DAYS: 7,
    };
    const jobs = retentionJobs(defaults).filter((j) => j.name === 'bot-requests');
    await runRetention(ctx.db, { jobs, now: new Date(Date.now() + 6 * 86_400_000), batchSize: 10 });
    assert.equal((await ctx.db.select({ n: sql<number>`count(*)::int` }).from(botRequests))[0].n, before, 'kept for 7 days');
    await runRetention(ctx.db, { jobs, now: new Date(Date.now() + 8 * 86_400_000), batchSize: 10 });
    assert.equal((await ctx.db.select({ n: sql<number>`count(*)::int` }).from(botRequests))[0].n, 0);
  });
});

describe('the request log with successes sampled (the default rate on PostgreSQL)', () => {
  const ctx = setupTestDatabase();
  useEnv({ BOT_REQUEST_LOG_SAMPLE_RATE: '0.5' });

  it("records every call of a sampled chat, only the failures of another, and says which in the chat's answer", async () => {
    const t = await createTenant(ctx.db);
    const { client: admin } = await signedInAdminOf(ctx.db, t.account.id);
    // Chats until both kinds are there (each is one or the other by its ID: half of them, about).
    const kept: string[] = [];
    const dropped: string[] = [];
    while (!kept.length || !dropped.length) {
      const chat = await newChat(t);
      (successRecorded(chat.chat_id, 0.5) ? kept : dropped).push(chat.chat_id);
    }
    for (const chatId of [kept[0], dropped[0]]) {
      const ok = await botApi('GET', `/chats/${chatId}`, { token: t.token });
      assert.equal(ok.status, 200);
      const refused = await patchChat(t, chatId, { tags: ['x'] }, t.humanTeam.id);
      assert.equal(refused.body.status_code, 2031, JSON.stringify(refused.body));
      await flushRequestLog();
      const rows = await ctx.db.select().from(botRequests).where(eq(botRequests.chatId, chatId));
      const logged = new Set(rows.map((r) => r.trxid));
      assert.ok(logged.has(refused.headers.get('trxid') as string), 'a failure is always recorded');
      assert.equal(logged.has(ok.headers.get('trxid') as string), chatId === kept[0], `success of ${chatId}`);
      const page = await admin.get(`/bot-requests?chat_id=${chatId}`);
      assert.equal(page.status, 200);
      assert.deepEqual(page.body.response.recording, {
        successes: 'sampled',
        sample_rate: 0.5,
        chat_successes_recorded: chatId === kept[0],
      });
    }
    // A success left out is not found by the trace look-up, which says why one may be missing.
    const left = await botApi('GET', `/chats/${dropped[0]}`, { token: t.token });
    await flushRequestLog();
    const trace = await admin.get(`/trace?id=${left.headers.get('trxid')}`);
    assert.deepEqual(trace.body.response.matches, []);
    assert.deepEqual(trace.body.response.recording, { successes: 'sampled', sample_rate: 0.5, chat_successes_recorded: null });
    const va = await admin.get(`/bot-requests?virtual_agent_id=${t.bot.user.id}`);
    assert.deepEqual(va.body.response.recording, { successes: 'sampled', sample_rate: 0.5, chat_successes_recorded: null });
  });
});
