import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from './sign-webhook';

const secret = `whsec_${Buffer.from('a signing key of thirty-two bytes').toString('base64')}`;
const previous = `whsec_${Buffer.from('the key before the last rotation').toString('base64')}`;
const verifierOf = (s: string) => new Webhook(Buffer.from(s.replace(/^whsec_/, ''), 'base64'), { format: 'raw' });

describe('signWebhook', () => {
  const at = new Date('2026-11-27T12:00:00.500Z');
  const payload = JSON.stringify({ event_type: 'message.received', text: 'héllo ✓' });

  it('signs as the Standard Webhooks library does, and its verifier accepts it', () => {
    const header = signWebhook({ transactionId: 'msg_1', at, payload, secrets: [secret] });
    assert.equal(header, verifierOf(secret).sign('msg_1', at, payload));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
    // The verifier checks the timestamp against its clock: verify at the signing time.
    const now = Date.now;
    Date.now = () => at.getTime();
    try {
      assert.deepEqual(verifierOf(secret).verify(payload, headers), JSON.parse(payload));
      assert.throws(() => verifierOf(previous).verify(payload, headers));
    } finally {
      Date.now = now;
    }
  });

  it('carries one signature per secret given, skipping empty ones', () => {
    const header = signWebhook({ transactionId: 'msg_2', at, payload, secrets: [secret, null, previous] });
    assert.deepEqual(header.split(' '), [verifierOf(secret).sign('msg_2', at, payload), verifierOf(previous).sign('msg_2', at, payload)]);
  });

  it('reads secrets written in the base64url alphabet', () => {
    const urlSecret = `whsec_${Buffer.from([0xfb, 0xff, 0xfe, 0x01, 0x02]).toString('base64url')}`;
    const std = `whsec_${Buffer.from([0xfb, 0xff, 0xfe, 0x01, 0x02]).toString('base64')}`;
    assert.notEqual(urlSecret, std);
    assert.equal(
      signWebhook({ transactionId: 'm', at, payload, secrets: [urlSecret] }),
      signWebhook({ transactionId: 'm', at, payload, secrets: [std] }),
    );
  });
});
