import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { events } from '@/db/schema';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { finishedAttempt, LOCAL_FAILURE_HOLD_MS } from '@/lib/delivery/deliver-claimed-event';
import { EndpointHealth } from '@/lib/delivery/endpoint-health';
import { recordAttempts } from '@/lib/delivery/record-attempts';
import type { SendOutcome } from '@/lib/delivery/send-webhook';
import { INHERITED_NODE_FLAGS, ROOT } from '../support/child-process';
import { setupTestDatabase } from '../support/db';
import { attemptsOf, createBotChat, deliverDue, eventsOfChat, tenantWithReceiver } from './helpers';
import { startReceiver } from './receiver';

const CHILD = path.join(import.meta.dirname, 'local-failure-process.ts');

/** What a webhook call out of file descriptors reports, from a real call in a process under `ulimit -n 256`. */
async function callsOutOfDescriptors() {
  const receiver = await startReceiver();
  try {
    const node = [process.execPath, ...INHERITED_NODE_FLAGS, '--import', 'tsx', CHILD, receiver.url].map((a) => `'${a}'`).join(' ');
    // Not spawnSync: the receiver answers from this process's event loop.
    const run = await promisify(execFile)('bash', ['-c', `ulimit -n 256 && exec ${node}`], {
      cwd: ROOT,
      env: process.env,
      timeout: 60_000,
    });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    const out = JSON.parse(line) as { held: number; exhausted: SendOutcome; freed: SendOutcome };
    return { ...out, received: receiver.requests.length };
  } finally {
    await receiver.close();
  }
}

describe('a webhook call that fails in this process (out of file descriptors)', () => {
  const ctx = setupTestDatabase();

  it('is reported as local, reaches nobody, and is not counted against the bot', { timeout: 120_000 }, async () => {
    const call = await callsOutOfDescriptors();
    assert.ok(call.held > 0, 'the process took the descriptors left to it');
    assert.equal(call.exhausted.ok, false);
    assert.match(call.exhausted.error ?? '', /EMFILE/);
    assert.equal(call.exhausted.local, true, 'a failure for want of descriptors is the process’s own');
    assert.equal(call.freed.ok, true, `once descriptors are free the same call succeeds: ${call.freed.error}`);
    assert.equal(call.freed.local, undefined);
    assert.equal(call.received, 1, 'only the second call reached the receiver');

    // That outcome, recorded for a real event: an attempt on record, the event's count untouched,
    // held for a few seconds and then delivered as usual.
    const { t, receiver } = await tenantWithReceiver(ctx.db);
    try {
      const chatId = await createBotChat(t);
      const claimed = (await claimDueEvents(ctx.db, { limit: 100 })).find((e) => e.chatId === chatId);
      assert.ok(claimed, 'the chat.assigned event is due');
      const exhausted: SendOutcome = { ...call.exhausted, startedAt: new Date(call.exhausted.startedAt) };
      const before = Date.now();
      const [result] = await recordAttempts(ctx.db, { attempts: [finishedAttempt(claimed, exhausted)] });
      assert.equal(result.status, 'pending');
      assert.equal(result.retryInMs, LOCAL_FAILURE_HOLD_MS);
      const [event] = await ctx.db.select().from(events).where(eq(events.id, claimed.id));
      assert.equal(event.attemptCount, 0, 'the bot was never reached: no attempt of its schedule used');
      assert.ok(event.nextAttemptAt.getTime() >= before + LOCAL_FAILURE_HOLD_MS - 1_000, 'held before it is tried again');
      const attempts = await attemptsOf(ctx.db, claimed.id);
      assert.equal(attempts.length, 1, 'the failed call is on record');
      assert.match(attempts[0].error ?? '', /EMFILE/);

      await ctx.db.update(events).set({ nextAttemptAt: new Date() }).where(eq(events.id, claimed.id));
      await deliverDue(ctx.db);
      const [delivered] = (await eventsOfChat(ctx.db, chatId)).filter((e) => e.id === claimed.id);
      assert.equal(delivered.status, 'delivered');
      assert.equal(delivered.attemptCount, 1);
      assert.equal(receiver.requests.length, 1);
    } finally {
      await receiver.close();
    }

    // The endpoint's circuit does not open on such failures, however many.
    const health = new EndpointHealth({ perEndpoint: 4, failuresToOpen: 3, openMs: 1_000, maxOpenMs: 10_000, clampRetryAfter: (ms) => ms });
    for (let i = 0; i < 10; i++) {
      health.started(1, 'http://bot.example/');
      const verdict = health.finished(1, 'http://bot.example/', call.exhausted);
      assert.deepEqual(verdict, { pauseUntil: null, opened: false, closed: false, recovered: false });
    }
    assert.equal(health.hasSlot(1), true);
    assert.deepEqual(health.states(), [{ vaId: 1, state: 'closed', inFlight: 0 }]);
  });
});
