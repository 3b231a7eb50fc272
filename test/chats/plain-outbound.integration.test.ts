/**
 * A bot's plain reply (outbound text or attachment, not streamed, naming no turn, without an
 * Idempotency-Key) is written in one statement (lib/chats/append-message.ts, appendPlainOutbound):
 * the same answer, row, chat update, refusals and live change as the general path, and, on
 * PostgreSQL, the widget's hint (`prevId`) right when the statement had to wait for another
 * writer's lock on the chat.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { and, count, eq, sql } from 'drizzle-orm';
import { chats, messages } from '@/db/schema';
import { env } from '@/env';
import { appendMessage } from '@/lib/chats/append-message';
import { lockChat } from '@/lib/chats/lock-chat';
import { plainOutbounds } from '@/lib/chats/plain-outbound';
import { withOutbox } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';
import { rowsOf } from '@/platform/util/rows-of';
import { until } from '../delivery/helpers';
import { botApi } from '../support/api-client';
import { chatChangesHeard, newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const BOUNDED = { timeout: 60_000 };

describe('a plain outbound message, written in one statement', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  const { heard, listen } = chatChangesHeard();
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });
  const post = (chatId: string, body: Record<string, unknown>, token = t.token) =>
    botApi('POST', `/chats/${chatId}/messages`, { token, body });
  const idOf = async (transid: string) =>
    (await ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.transid, transid)))[0]?.id;
  const messageCount = async (chatId: string) =>
    (await ctx.db.select({ n: count() }).from(messages).where(eq(messages.chatId, chatId)))[0].n;

  it('answers, stores and publishes as the general path: the hint, typing off, the reply clock stopped', BOUNDED, async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const chatId = chat.chat_id;
    listen(chatId);
    const inbound = await post(chatId, { type: 'inbound', text: 'Where is my order?' });
    assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
    const typing = await botApi('PUT', `/chats/${chatId}/typing`, { token: t.token, body: { on: true } });
    assert.equal(typing.status, 200, JSON.stringify(typing.body));
    const [waiting] = await ctx.db.select().from(chats).where(eq(chats.id, chatId));
    assert.ok(waiting.awaitingReplySince && waiting.typingUntil, 'the customer waits and the bot types');
    heard.length = 0;

    const first = await post(chatId, { type: 'outbound', text: 'On its way.', timestamp: '2026-11-30T10:00:00.000Z' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const view = first.body.response;
    assert.deepEqual(
      { ...view, transid: typeof view.transid },
      { transid: 'string', type: 'outbound', text: 'On its way.', author: t.bot.user.loginId, timestamp: '2026-11-30T10:00:00.000Z' },
    );
    const firstId = await idOf(view.transid);
    const inboundId = await idOf(inbound.body.response.transid);
    assert.deepEqual(heard, [
      {
        kind: 'message',
        message: { id: firstId, type: 'outbound', body: { text: 'On its way.' }, sentAt: new Date('2026-11-30T10:00:00.000Z') },
        prevId: inboundId,
        typingOff: true,
      },
    ]);
    const [after1] = await ctx.db.select().from(chats).where(eq(chats.id, chatId));
    assert.deepEqual(
      { awaiting: after1.awaitingReplySince, due: after1.replyDueAt, typing: after1.typingUntil, status: after1.typingStatus },
      { awaiting: null, due: null, typing: null, status: null },
    );
    assert.ok(after1.updatedAt > waiting.updatedAt, 'the chat moved up the lists');

    // An attachment, then the list shows both in order with the general path's view.
    const second = await post(chatId, { type: 'outbound', attachment: { type: 'file', url: 'https://example.com/r.pdf' } });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    const last = heard.at(-1);
    assert.equal(last?.kind === 'message' && last.prevId, firstId);
    assert.equal(last?.kind === 'message' && last.typingOff, false);
    const listed = await botApi('GET', `/chats/${chatId}/messages`, { token: t.token });
    assert.deepEqual(
      listed.body.response.messages.slice(-2).map((m: Record<string, unknown>) => [m.transid, m.text ?? m.attachment]),
      [
        [view.transid, 'On its way.'],
        [second.body.response.transid, { type: 'file', url: 'https://example.com/r.pdf' }],
      ],
    );
  });

  it('refuses as the general path, writing nothing: no chat, a closed chat, a chat not the VA’s', BOUNDED, async () => {
    const missing = await post('CH-no-such-chat', { type: 'outbound', text: 'hello' });
    assert.equal(missing.body.status_code, 2031, JSON.stringify(missing.body));
    const other = await createTenant(ctx.db);
    const foreign = await newChat(other, { assignee: other.bot.user.loginId });
    assert.equal((await post(foreign.chat_id, { type: 'outbound', text: 'hello' })).body.status_code, 2031, 'another account’s chat');

    const unassigned = await newChat(t, { channel: 'livechat' });
    const refused = await post(unassigned.chat_id, { type: 'outbound', text: 'hello' });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.status_code, 2043);
    assert.match(refused.body.description, /unassigned/);

    const theirs = await newChat(t, { assignee: t.agent.loginId, team_id: t.humanTeam.id });
    const notOurs = await post(theirs.chat_id, { type: 'outbound', text: 'hello' });
    assert.equal(notOurs.body.status_code, 2043, JSON.stringify(notOurs.body));
    assert.match(notOurs.body.description, /assigned to someone else/);

    const closed = await newChat(t, { assignee: t.bot.user.loginId });
    await ctx.db.update(chats).set({ status: 'closed' }).where(eq(chats.id, closed.chat_id));
    const late = await post(closed.chat_id, { type: 'outbound', text: 'hello' });
    assert.equal(late.body.status_code, 2040, JSON.stringify(late.body));
    for (const c of [unassigned, theirs, closed]) assert.equal(await messageCount(c.chat_id), 0, `nothing written to ${c.chat_id}`);

    // A field the one statement does not take goes the general way, with its own checks.
    const sms = await newChat(t, { assignee: t.bot.user.loginId });
    const quick = await post(sms.chat_id, { type: 'outbound', text: 'hi', livechat_sub_type: 'text' });
    assert.equal(quick.body.status_code, 2020, 'livechat_sub_type on an sms chat is checked against the channel');
  });

  it('writes many chats’ messages at once in shared statements, each answered, ordered and hinted as alone', BOUNDED, async () => {
    const many = await Promise.all(Array.from({ length: 20 }, () => newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' })));
    for (const c of many) listen(c.chat_id);
    const closed = await newChat(t, { assignee: t.bot.user.loginId });
    await ctx.db.update(chats).set({ status: 'closed' }).where(eq(chats.id, closed.chat_id));
    const unassigned = await newChat(t, { channel: 'livechat' });
    heard.length = 0;
    const before = { ...plainOutbounds.counts };
    const send = (chatId: string, text: string) =>
      appendMessage(ctx.db, {
        accountId: t.account.id,
        chatId,
        actorLoginId: t.bot.user.loginId,
        actorUserId: t.bot.user.id,
        input: { type: 'outbound', text },
      });
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'written',
        (err) => (err instanceof ApiError ? String(err.code) : `not an API error: ${err}`),
      );
    const refused: Promise<string>[] = [];
    // Each chat's four messages in order, all chats at once; beside them, two more to one chat at
    // the same time, and messages no chat can take, which must be refused alone.
    await Promise.all([
      ...many.map(async (c, i) => {
        for (let n = 1; n <= 4; n++) {
          if (n === 2 && i % 5 === 0) {
            refused.push(codeOf(send(closed.chat_id, 'late')), codeOf(send(unassigned.chat_id, 'not ours')));
            refused.push(codeOf(send('CH-no-such-chat', 'nobody')));
          }
          await send(c.chat_id, `${i}.${n}`);
        }
      }),
      send(many[0].chat_id, 'side 1'),
      send(many[0].chat_id, 'side 2'),
    ]);
    assert.deepEqual((await Promise.all(refused)).sort(), [...Array(4).fill('2031'), ...Array(4).fill('2040'), ...Array(4).fill('2043')]);
    const after = plainOutbounds.counts;
    assert.ok(after.statements > before.statements, 'no messages went in a shared statement');
    assert.ok(after.items - before.items >= 2 * (after.statements - before.statements));

    for (const [i, c] of many.entries()) {
      const rows = await ctx.db
        .select({ id: messages.id, body: messages.body })
        .from(messages)
        .where(eq(messages.chatId, c.chat_id))
        .orderBy(messages.id);
      const texts = rows.map((r) => r.body.text);
      const own = texts.filter((x) => !String(x).startsWith('side'));
      assert.deepEqual(
        own,
        [1, 2, 3, 4].map((n) => `${i}.${n}`),
        `chat ${i}`,
      );
      if (i === 0) assert.deepEqual(texts.filter((x) => String(x).startsWith('side')).sort(), ['side 1', 'side 2']);
      // The widget's hint of each message is the message before it in the chat (0 for the first).
      const changes = heard.filter((h) => h?.kind === 'message' && rows.some((r) => r.id === h.message.id));
      assert.equal(changes.length, rows.length, `chat ${i}: a change for each message`);
      for (const h of changes) {
        if (h?.kind !== 'message') continue;
        const at = rows.findIndex((r) => r.id === h.message.id);
        assert.equal(h.prevId, at ? rows[at - 1].id : 0, `chat ${i}, message ${at}`);
      }
    }
    for (const c of [closed, unassigned]) assert.equal(await messageCount(c.chat_id), 0, `nothing written to ${c.chat_id}`);
  });

  it('gives the widget the message it waited for as the one before (PostgreSQL: another writer holds the chat)', {
    ...BOUNDED,
    skip: env().DATABASE_URL ? false : 'needs PostgreSQL: PGlite runs one transaction at a time',
  }, async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const chatId = chat.chat_id;
    listen(chatId);
    const before = await post(chatId, { type: 'outbound', text: 'one' });
    const beforeId = await idOf(before.body.response.transid);
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let heldId: number | undefined;
    // Another writer: holds the chat's lock with a message written and not yet committed.
    const holder = withOutbox(ctx.db, async (tx) => {
      await lockChat(tx, { accountId: t.account.id, chatId });
      const [row] = await tx
        .insert(messages)
        .values({ chatId, accountId: t.account.id, transid: newTraceId(), type: 'outbound', body: { text: 'two' }, authorLoginId: null })
        .returning({ id: messages.id });
      heldId = row.id;
      await Promise.race([released, new Promise((r) => setTimeout(r, 10_000))]);
    });
    await until('the holder to write its message', () => heldId);
    const plain = appendMessage(ctx.db, {
      accountId: t.account.id,
      chatId,
      actorLoginId: t.bot.user.loginId,
      actorUserId: t.bot.user.id,
      input: { type: 'outbound', text: 'three' },
    });
    // The one statement's snapshot is taken now, before the holder commits; it then waits for the lock.
    await until('the plain message to wait for the chat’s lock', async () => {
      const [w] = rowsOf<{ n: number }>(
        await ctx.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        ),
      );
      return Number(w.n) > 0;
    });
    release();
    await holder;
    const written = await plain;
    const last = heard.at(-1);
    assert.ok(last?.kind === 'message', `changes heard: ${JSON.stringify(heard.map((c) => c?.kind))}`);
    assert.equal(last.message.id, written.stored?.id);
    assert.ok(written.stored && heldId && written.stored.id > heldId, 'numbered after the message it waited for');
    assert.equal(last.prevId, heldId, `the one before is the held message ${heldId}, not ${beforeId} (read before the wait)`);
    const [n] = await ctx.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.chatId, chatId), eq(messages.type, 'outbound')));
    assert.equal(n.n, 3);
  });
});
