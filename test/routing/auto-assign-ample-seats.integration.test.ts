/**
 * Auto-assign to a VA with ample seats takes no lock on it: a new chat of the bot's team is
 * assigned while another transaction's assignment to the same VA is still uncommitted (before,
 * that transaction's lock on the VA made it wait for the commit, so a team started its chats one
 * at a time). Near capacity the pick is still made under the lock: a VA of capacity 1 is given one
 * chat of several started at once, the others queue.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { and, eq, ne } from 'drizzle-orm';
import { chats, teams, users } from '@/db/schema';
import { env } from '@/env';
import { assignQueuedChat } from '@/lib/chats/auto-assign';
import { createChat } from '@/lib/chats/create-chat';
import { withOutbox } from '@/lib/events/with-outbox';
import { until } from '../delivery/helpers';
import { setupTestDatabase } from '../support/db';
import { describeOrSkip } from '../support/describe-or-skip';
import { createTenant, type Tenant } from '../support/tenant';

// PGlite has one connection and runs transactions one after another: nothing can be in flight beside another.
const skip = env().DATABASE_URL ? false : 'needs PostgreSQL (set DATABASE_URL): PGlite runs one transaction at a time';

/** Each test fails, naming itself, rather than hanging if a transaction is never answered. */
const BOUNDED = { timeout: 60_000 };

describeOrSkip('auto-assign to a VA with ample seats', skip, () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
  });

  const start = (destination: string) =>
    createChat(ctx.db, {
      accountId: t.account.id,
      actorLoginId: t.bot.user.loginId,
      body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: destination }, team_id: t.botTeam.id },
    });

  it("assigns a new chat while another transaction's assignment to the same VA is uncommitted", BOUNDED, async () => {
    const queued = await start('+15550001000');
    // Back to the queue, to be assigned again inside a transaction this test holds open.
    await ctx.db.update(chats).set({ assigneeId: null, status: 'queued' }).where(eq(chats.id, queued.chat.chat_id));
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let assignedInside: number | undefined;
    const holder = withOutbox(ctx.db, async (tx) => {
      const taker = await assignQueuedChat(tx, { accountId: t.account.id, chatId: queued.chat.chat_id, teamId: t.botTeam.id, skill: null });
      assignedInside = taker?.id;
      // Held open until the other chat is started, or 10 s: a lock on the VA would keep it waiting that long.
      await Promise.race([released, new Promise((r) => setTimeout(r, 10_000))]);
    });
    let holderFailed: unknown;
    holder.catch((err) => {
      holderFailed = err;
    });
    await until('the held transaction to assign its chat', () => {
      if (holderFailed) throw holderFailed;
      return assignedInside !== undefined;
    });
    assert.equal(assignedInside, t.bot.user.id);

    const startedAt = Date.now();
    const other = await start('+15550001001');
    const waited = Date.now() - startedAt;
    release();
    await holder;
    assert.equal(other.chat.assignee, t.bot.user.loginId, 'the VA took the second chat');
    assert.ok(waited < 5_000, `the second chat waited ${waited} ms for the first transaction's commit`);
  });

  it('picks under the lock near capacity: a VA of capacity 1 takes one of several chats started at once', BOUNDED, async () => {
    await ctx.db.update(chats).set({ status: 'closed' }).where(eq(chats.assigneeId, t.bot.user.id));
    await ctx.db.update(users).set({ capacity: 1 }).where(eq(users.id, t.bot.user.id));
    try {
      const started = await Promise.all(Array.from({ length: 6 }, (_, i) => start(`+1555000200${i}`)));
      const ids = started.map((s) => s.chat.chat_id);
      const open = await ctx.db
        .select({ id: chats.id, assigneeId: chats.assigneeId, status: chats.status })
        .from(chats)
        .where(and(eq(chats.teamId, t.botTeam.id), ne(chats.status, 'closed')));
      const mine = open.filter((c) => ids.includes(c.id));
      assert.equal(mine.filter((c) => c.assigneeId === t.bot.user.id).length, 1, 'one seat, one chat');
      assert.equal(mine.filter((c) => c.status === 'queued' && c.assigneeId === null).length, 5);
    } finally {
      await ctx.db.update(users).set({ capacity: 1_000_000 }).where(eq(users.id, t.bot.user.id));
    }
  });
});
