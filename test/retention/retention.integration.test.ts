import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import {
  accessTokens,
  adminSessions,
  admins,
  agentSessions,
  auditEntries,
  chats,
  customers,
  deliveryAttempts,
  events,
  idempotencyKeys,
  messages,
} from '@/db/schema';
import { retentionJobs } from '@/lib/retention/jobs';
import { runRetention } from '@/lib/retention/run-retention';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const DAY = 24 * 60 * 60_000;
const defaults = {
  EVENT_RETENTION_DAYS: 30,
  FAILED_EVENT_RETENTION_DAYS: 90,
  CHAT_RETENTION_DAYS: undefined,
  ROLLUP_RETENTION_DAYS: 90,
  AUDIT_RETENTION_DAYS: 365,
};

describe('retention', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  // The clock the runs use: 100 days after the rows below were written "now".
  const later = new Date(Date.now() + 100 * DAY);
  const daysBefore = (days: number) => new Date(later.getTime() - days * DAY);
  const ids: Record<string, number> = {};
  const chatIds: Record<string, string> = {};

  async function event(label: string, chatId: string, fields: Partial<typeof events.$inferInsert>) {
    const [row] = await ctx.db
      .insert(events)
      .values({
        transactionId: `retention-${label}-${Math.random()}`,
        accountId: t.account.id,
        chatId,
        virtualAgentId: t.bot.user.id,
        eventType: 'chat.assigned',
        seq: 100 + Object.keys(ids).length,
        body: {},
        ...fields,
      })
      .returning({ id: events.id });
    ids[label] = row.id;
    await ctx.db
      .insert(deliveryAttempts)
      .values({ eventId: row.id, attemptNumber: 1, startedAt: fields.createdAt ?? later, durationMs: 10, httpStatus: 200 });
  }

  before(async () => {
    t = await createTenant(ctx.db);
    for (const label of ['open', 'closedOld', 'closedRecent', 'closedOldPending']) chatIds[label] = (await newChat(t)).chat_id;
    // An old closed chat of the customer whose other chat is still open.
    const [openOne] = await ctx.db.select({ customerId: chats.customerId }).from(chats).where(eq(chats.id, chatIds.open));
    const [openCustomer] = await ctx.db.select().from(customers).where(eq(customers.id, openOne.customerId));
    chatIds.closedOldRepeat = (await newChat(t, { customer: { destination_id: openCustomer.destinationId } })).chat_id;
    await ctx.db
      .update(chats)
      .set({ status: 'closed', closedAt: daysBefore(400) })
      .where(inArray(chats.id, [chatIds.closedOld, chatIds.closedOldPending, chatIds.closedOldRepeat]));
    // Every customer last touched long ago: only the chats left decide which stay.
    await ctx.db
      .update(customers)
      .set({ updatedAt: daysBefore(400) })
      .where(eq(customers.accountId, t.account.id));
    await ctx.db
      .update(chats)
      .set({ status: 'closed', closedAt: daysBefore(5) })
      .where(eq(chats.id, chatIds.closedRecent));
    const c = chatIds.open;
    await event('deliveredOld', c, { status: 'delivered', deliveredAt: daysBefore(31), createdAt: daysBefore(31) });
    await event('deliveredRecent', c, { status: 'delivered', deliveredAt: daysBefore(29), createdAt: daysBefore(29) });
    await event('failedOld', c, { status: 'failed', failedAt: daysBefore(91), createdAt: daysBefore(91) });
    await event('failedRecent', c, { status: 'failed', failedAt: daysBefore(60), createdAt: daysBefore(60) });
    await event('pendingOld', c, { status: 'pending', createdAt: daysBefore(300), nextAttemptAt: daysBefore(1) });
    await event('inFlightOld', c, { status: 'pending', createdAt: daysBefore(300), lockedUntil: new Date(later.getTime() + 60_000) });
    await event('pendingOnClosedChat', chatIds.closedOldPending, { status: 'pending', createdAt: daysBefore(300) });
    await ctx.db.insert(idempotencyKeys).values([
      {
        accountId: t.account.id,
        key: 'old',
        fingerprint: 'f',
        httpStatus: 201,
        response: {},
        createdAt: new Date(later.getTime() - 25 * 3_600_000),
      },
      {
        accountId: t.account.id,
        key: 'fresh',
        fingerprint: 'f',
        httpStatus: 201,
        response: {},
        createdAt: new Date(later.getTime() - 23 * 3_600_000),
      },
    ]);
    await ctx.db.insert(accessTokens).values([
      { tokenHash: 'expired-token', userId: t.bot.user.id, accountId: t.account.id, expiresAt: new Date(later.getTime() - 1000) },
      { tokenHash: 'valid-token', userId: t.bot.user.id, accountId: t.account.id, expiresAt: new Date(later.getTime() + 3_600_000) },
    ]);
    const [adm] = await ctx.db.select({ id: admins.id }).from(admins).where(eq(admins.accountId, t.account.id));
    await ctx.db.insert(adminSessions).values([
      { tokenHash: 'expired-session', adminId: adm.id, expiresAt: new Date(later.getTime() - 1000) },
      { tokenHash: 'valid-session', adminId: adm.id, expiresAt: new Date(later.getTime() + 3_600_000) },
    ]);
    await ctx.db.insert(agentSessions).values([
      { tokenHash: 'expired-agent-session', userId: t.agent.id, expiresAt: new Date(later.getTime() - 1000) },
      { tokenHash: 'valid-agent-session', userId: t.agent.id, expiresAt: new Date(later.getTime() + 3_600_000) },
    ]);
  });

  const eventsLeft = async () =>
    new Set(
      (
        await ctx.db
          .select({ id: events.id })
          .from(events)
          .where(inArray(events.id, Object.values(ids)))
      ).map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]),
    );

  it('keeps everything while nothing is due (today’s clock)', async () => {
    const run = await runRetention(ctx.db, { jobs: retentionJobs(defaults), batchSize: 10 });
    const mine = await eventsLeft();
    assert.equal(mine.size, Object.keys(ids).length, `events removed: ${JSON.stringify(run)}`);
  });

  it('removes delivered events after 30 days and failed ones after 90, with their attempts, in bounded batches; never a pending or in-flight event', async () => {
    const run = await runRetention(ctx.db, { jobs: retentionJobs(defaults), now: later, batchSize: 1 });
    assert.deepEqual(await eventsLeft(), new Set(['deliveredRecent', 'failedRecent', 'pendingOld', 'inFlightOld', 'pendingOnClosedChat']));
    const attempts = await ctx.db
      .select({ id: deliveryAttempts.id })
      .from(deliveryAttempts)
      .where(inArray(deliveryAttempts.eventId, [ids.deliveredOld, ids.failedOld]));
    assert.deepEqual(attempts, [], 'their attempts went with them');
    const delivered = run.find((r) => r.job === 'delivered-events');
    assert.ok(delivered && delivered.deleted >= 1 && delivered.batches >= 2 && delivered.complete, JSON.stringify(delivered));
  });

  it('removes idempotency keys after 24 hours and expired tokens and sessions, keeping the rest', async () => {
    const keys = await ctx.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.accountId, t.account.id));
    assert.deepEqual(
      keys.map((k) => k.key),
      ['fresh'],
    );
    const tokens = await ctx.db
      .select({ h: accessTokens.tokenHash })
      .from(accessTokens)
      .where(inArray(accessTokens.tokenHash, ['expired-token', 'valid-token']));
    assert.deepEqual(
      tokens.map((r) => r.h),
      ['valid-token'],
    );
    const sessions = await ctx.db
      .select({ h: adminSessions.tokenHash })
      .from(adminSessions)
      .where(inArray(adminSessions.tokenHash, ['expired-session', 'valid-session']));
    assert.deepEqual(
      sessions.map((r) => r.h),
      ['valid-session'],
    );
    const agentLeft = await ctx.db
      .select({ h: agentSessions.tokenHash })
      .from(agentSessions)
      .where(inArray(agentSessions.tokenHash, ['expired-agent-session', 'valid-agent-session']));
    assert.deepEqual(
      agentLeft.map((r) => r.h),
      ['valid-agent-session'],
    );
  });

  it('keeps closed chats by default, and with CHAT_RETENTION_DAYS removes old closed ones with their transcript, except one with a pending event', async () => {
    const left = async () =>
      new Set(
        (
          await ctx.db
            .select({ id: chats.id })
            .from(chats)
            .where(inArray(chats.id, Object.values(chatIds)))
        ).map((r) => Object.entries(chatIds).find(([, id]) => id === r.id)?.[0]),
      );
    const customerOf = new Map<string, number>();
    for (const [label, id] of Object.entries(chatIds)) {
      const [row] = await ctx.db.select({ customerId: chats.customerId }).from(chats).where(eq(chats.id, id));
      customerOf.set(label, row.customerId);
    }
    assert.equal((await left()).size, 5, 'default: closed chats are kept');
    await runRetention(ctx.db, { jobs: retentionJobs({ ...defaults, CHAT_RETENTION_DAYS: 365 }), now: later, batchSize: 10 });
    assert.deepEqual(await left(), new Set(['open', 'closedRecent', 'closedOldPending']));
    // The customer of the removed chat goes with it; one with another chat left stays.
    const customersLeft = new Set(
      (
        await ctx.db
          .select({ id: customers.id })
          .from(customers)
          .where(inArray(customers.id, [...customerOf.values()]))
      ).map((r) => r.id),
    );
    assert.deepEqual(
      [...customerOf]
        .filter(([, id]) => customersLeft.has(id))
        .map(([label]) => label)
        .sort(),
      ['closedOldPending', 'closedOldRepeat', 'closedRecent', 'open'],
    );
    const transcript = await ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.chatId, chatIds.closedOld));
    assert.deepEqual(transcript, []);
    const pending = await ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.chatId, chatIds.closedOldPending), eq(events.status, 'pending')));
    assert.equal(pending.length, 1);
  });

  it('removes audit entries after AUDIT_RETENTION_DAYS and keeps younger ones', async () => {
    const entry = (trxid: string, createdAt: Date) => ({
      accountId: t.account.id,
      adminEmail: 'auditor@example.test',
      action: 'PATCH /teams/:id',
      httpStatus: 200,
      clientAddress: '127.0.0.1',
      trxid,
      createdAt,
    });
    await ctx.db.insert(auditEntries).values([entry('audit-old', daysBefore(400)), entry('audit-young', daysBefore(300))]);
    await runRetention(ctx.db, { jobs: retentionJobs(defaults), now: later, batchSize: 10 });
    const left = await ctx.db.select({ trxid: auditEntries.trxid }).from(auditEntries).where(eq(auditEntries.accountId, t.account.id));
    assert.deepEqual(
      left.map((r) => r.trxid),
      ['audit-young'],
    );
  });
});
