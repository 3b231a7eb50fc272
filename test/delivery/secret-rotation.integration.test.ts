import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { rotateSigningSecret } from '@/lib/virtual-agents/rotate-signing-secret';
import { getVirtualAgentOrFail } from '@/lib/virtual-agents/virtual-agent-view';
import { setupTestDatabase } from '../support/db';
import type { Tenant } from '../support/tenant';
import { createBotChat, deliverDue, tenantWithReceiverEach } from './helpers';
import type { Received, Receiver } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
process.env.DELIVERY_TIMEOUT_MS = '10000';
resetEnv();

/** Whether a bot knowing only `secret` accepts the request (Standard Webhooks' own verifier). */
function verifies(secret: string, req: Received): boolean {
  try {
    new Webhook(secret).verify(req.raw, {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

describe('signing-secret rotation', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  // The bot behind this receiver knows only the secret it was registered with.
  let known = '';

  tenantWithReceiverEach(
    ctx,
    (fresh) => {
      ({ t, receiver } = fresh);
      known = t.bot.signingSecret;
    },
    { handler: (req) => ({ status: verifies(known, req) ? 200 : 401 }) },
  );

  it('keeps deliveries verifiable with the old secret during the overlap, and with the new one too', async () => {
    const rotated = await rotateSigningSecret(ctx.db, { accountId: t.account.id, id: t.bot.user.id });
    const until = Date.parse(rotated.previous_valid_until ?? '');
    assert.ok(until > Date.now() + 23 * 3600_000 && until <= Date.now() + 24 * 3600_000);
    const view = await getVirtualAgentOrFail(ctx.db, { accountId: t.account.id, id: t.bot.user.id });
    assert.equal(view.previous_signing_secret_valid_until, rotated.previous_valid_until);

    await createBotChat(t);
    const [result] = await deliverDue(ctx.db);
    assert.equal(result.status, 'delivered', 'the bot that knows only the old secret accepted it');
    const [req] = receiver.requests;
    assert.equal(String(req.headers['webhook-signature']).split(' ').length, 2);
    assert.ok(verifies(rotated.signing_secret, req), 'a bot already on the new secret accepts it as well');
  });

  it('signs with the new secret only after `at_once`, so a bot on the old secret refuses', async () => {
    const rotated = await rotateSigningSecret(ctx.db, { accountId: t.account.id, id: t.bot.user.id, mode: 'at_once' });
    assert.equal(rotated.previous_valid_until, null);
    await createBotChat(t);
    const [result] = await deliverDue(ctx.db);
    assert.notEqual(result.status, 'delivered');
    assert.equal(receiver.requests[0].headers['webhook-signature']?.toString().split(' ').length, 1);
    assert.ok(verifies(rotated.signing_secret, receiver.requests[0]));
  });

  it('drops the old signature once the overlap is over', async () => {
    const rotated = await rotateSigningSecret(ctx.db, { accountId: t.account.id, id: t.bot.user.id });
    await ctx.db
      .update(virtualAgents)
      .set({ previousSigningSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    await createBotChat(t);
    await deliverDue(ctx.db);
    const [req] = receiver.requests;
    assert.equal(String(req.headers['webhook-signature']).split(' ').length, 1);
    assert.ok(verifies(rotated.signing_secret, req));
    assert.ok(!verifies(known, req));
    const view = await getVirtualAgentOrFail(ctx.db, { accountId: t.account.id, id: t.bot.user.id });
    assert.equal(view.previous_signing_secret_valid_until, null);
  });
});
