import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { webhookEventSchema } from '@/contracts/bot/schemas/events';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { deliveryAttempts, events } from '@/db/schema';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { deliverClaimedEvent } from '@/lib/delivery/deliver-claimed-event';
import { botApi } from '../support/api-client';
import { createTenant, type Tenant } from '../support/tenant';
import { type Handler, type Receiver, startReceiver } from './receiver';

export type TenantWithReceiver = { t: Tenant; receiver: Receiver };
type ReceiverOptions = { handler?: Handler; subscriptions?: EventType[] };
const answerOk: Handler = () => ({ status: 200, body: 'ok' });

/** A tenant (see createTenant) whose VA posts to a real receiver of its own, started here: the caller closes it. */
export async function tenantWithReceiver(db: Db, { handler, subscriptions }: ReceiverOptions = {}): Promise<TenantWithReceiver> {
  const receiver = await startReceiver(handler);
  try {
    return { t: await createTenant(db, { webhookUrl: receiver.url, subscriptions }), receiver };
  } catch (err) {
    await receiver.close();
    throw err;
  }
}

/**
 * For the tests of a `describe` that each want a tenant with a real receiver, as tenantWithReceiver
 * but with one receiver for the whole block, closed after it. Before each test: events left pending
 * by earlier tests are marked failed (so they never reach this test's receiver or fill its claims),
 * the receiver forgets its requests and answers with `handler` again (200 "ok" by default), a new
 * tenant is made, and `each` gets it. Call after setupTestDatabase, so its hooks run after the
 * database opens.
 */
export function tenantWithReceiverEach(
  ctx: { readonly db: Db },
  each: (fresh: TenantWithReceiver) => void,
  { handler = answerOk, subscriptions }: ReceiverOptions = {},
): void {
  let receiver: Receiver | undefined;
  before(async () => {
    receiver = await startReceiver(handler);
  });
  after(() => receiver?.close());
  beforeEach(async () => {
    if (!receiver) throw new Error('the receiver did not start');
    await ctx.db.update(events).set({ status: 'failed' }).where(eq(events.status, 'pending'));
    receiver.requests.length = 0;
    receiver.setHandler(handler);
    each({ t: await createTenant(ctx.db, { webhookUrl: receiver.url, subscriptions }), receiver });
  });
}

/**
 * A maker of tenants that each post to a new receiver of their own (for tests that give each VA
 * its own endpoint), and of further receivers; every receiver it started closes after the block.
 */
export function ownReceivers(ctx: { readonly db: Db }) {
  const started: Receiver[] = [];
  after(() => Promise.all(started.map((r) => r.close())));
  return {
    async tenant(handler?: Handler): Promise<TenantWithReceiver> {
      const made = await tenantWithReceiver(ctx.db, { handler });
      started.push(made.receiver);
      return made;
    },
    async receiver(handler?: Handler): Promise<Receiver> {
      const receiver = await startReceiver(handler);
      started.push(receiver);
      return receiver;
    },
  };
}

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs` with `what`. */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A chat assigned to the tenant's VA (which emits chat.assigned); returns its id. */
export async function createBotChat(t: Tenant): Promise<string> {
  const created = await botApi('POST', '/chats', {
    token: t.token,
    body: {
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550001', name: 'Ann' },
      assignee: t.bot.user.loginId,
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.response.chat_id;
}

/** An inbound customer message (emits message.received). */
export async function sendInbound(t: Tenant, chatId: string, text: string): Promise<void> {
  const r = await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'inbound', text } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

export async function eventsOfChat(db: Db, chatId: string) {
  return db.select().from(events).where(eq(events.chatId, chatId)).orderBy(asc(events.seq));
}

export async function attemptsOf(db: Db, eventId: number) {
  return db.select().from(deliveryAttempts).where(eq(deliveryAttempts.eventId, eventId)).orderBy(asc(deliveryAttempts.attemptNumber));
}

/** One round of delivery without the engine: claims what is due now and attempts it. */
export async function deliverDue(db: Db) {
  const claimed = await claimDueEvents(db, { limit: 100 });
  return Promise.all(claimed.map((event) => deliverClaimedEvent(db, { event })));
}

/**
 * Delivers rounds until nothing is due, then answers the bodies `receiver` got about `chatId`, in
 * arrival order, each checked against the contract's webhook event schema.
 */
export async function deliveredBodies(db: Db, receiver: Receiver, chatId: string) {
  while ((await deliverDue(db)).length > 0);
  const bodies = receiver.requests.map((r) => r.body).filter((b) => b.chat_id === chatId);
  for (const b of bodies) webhookEventSchema.parse(b);
  return bodies;
}
