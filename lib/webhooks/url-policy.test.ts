import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEnv } from '@/test/support/env';
import { checkStaticHeaders, checkWebhookUrl, isPublicAddress } from './url-policy';

describe('webhook URL policy', () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });

  it('refuses loopback, private, link-local, CGNAT, unique-local, mapped and unspecified addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
    assert.equal(isPublicAddress('93.184.216.34'), true);
    assert.equal(isPublicAddress('2606:4700::1111'), true);
  });

  it('refuses numeric host forms that normalise to loopback', async () => {
    for (const url of [
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://127.1/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://0/hook',
    ]) {
      const verdict = await checkWebhookUrl(url, { resolve: false });
      assert.equal(verdict.ok, false, url);
    }
  });

  it('requires https and refuses credentials and bare host names', async () => {
    assert.deepEqual((await checkWebhookUrl('http://93.184.216.34/x', { resolve: false })).ok, false);
    assert.deepEqual((await checkWebhookUrl('https://u:p@93.184.216.34/x', { resolve: false })).ok, false);
    assert.deepEqual((await checkWebhookUrl('https://localhost/x', { resolve: false })).ok, false);
    assert.deepEqual((await checkWebhookUrl('https://intranet/x', { resolve: false })).ok, false);
    assert.deepEqual((await checkWebhookUrl('https://93.184.216.34/x', { resolve: false })).ok, true);
    assert.deepEqual((await checkWebhookUrl('https://bot.example.com/x', { resolve: false })).ok, true);
  });

  it('refuses reserved and malformed static headers', () => {
    const problems = checkStaticHeaders({ 'Webhook-Signature': 'x', Host: 'y', 'bad name': 'z', 'X-Ok': 'fine', 'X-Split': 'a\r\nb' });
    assert.deepEqual(problems.map((p) => p.field).sort(), [
      'webhook_headers.Host',
      'webhook_headers.Webhook-Signature',
      'webhook_headers.X-Split',
      'webhook_headers.bad name',
    ]);
  });
});
