import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deliveryAttempts, events } from '@/db/schema';
import { botApi } from '../support/bot-api';
import type { Tenant } from '../support/tenant';

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
