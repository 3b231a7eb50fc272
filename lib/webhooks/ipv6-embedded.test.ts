import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEnv } from '@/test/support/env';
import { headerValueProblem } from './static-headers';
import { checkWebhookUrl, isPublicAddress } from './url-policy';

// Every IPv6 form that embeds or reaches an IPv4 address, each with a private and a public IPv4
// inside: all are refused, so no embedded address needs decoding to be safe.
const EMBEDDED: { form: string; addresses: string[] }[] = [
  { form: 'IPv4-compatible ::/96', addresses: ['::127.0.0.1', '::a9fe:a9fe', '::10.0.0.1', '::8.8.8.8'] },
  { form: 'IPv4-mapped ::ffff:0:0/96', addresses: ['::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '::ffff:8.8.8.8'] },
  { form: 'IPv4-translated ::ffff:0:0:0/96', addresses: ['::ffff:0:7f00:1', '::ffff:0:808:808'] },
  { form: 'NAT64 64:ff9b::/96', addresses: ['64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::8.8.8.8'] },
  { form: 'local NAT64 64:ff9b:1::/48', addresses: ['64:ff9b:1::a00:1', '64:ff9b:1:ffff::808:808'] },
  { form: '6to4 2002::/16', addresses: ['2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:808:808::1'] },
  { form: 'Teredo 2001::/32', addresses: ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001::1'] },
];

describe('IPv6 forms embedding IPv4', () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });

  for (const { form, addresses } of EMBEDDED) {
    for (const address of addresses) {
      it(`refuses ${form}: ${address}, as an address and as a URL host`, async () => {
        assert.equal(isPublicAddress(address), false);
        assert.equal((await checkWebhookUrl(`https://[${address}]/hook`, { resolve: false })).ok, false);
      });
    }
  }

  it('still accepts native global IPv6 next to those ranges', () => {
    for (const address of ['2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });
});

describe('static header values', () => {
  const cases: [string, string | null][] = [
    ['Bearer abc.def', null],
    ['a\tb', null],
    ['', null],
    ['line\r\nInjected: 1', 'value may not contain line breaks'],
    ['nul\u0000', 'value may not contain control characters'],
    ['bell\u0007', 'value may not contain control characters'],
    ['del\u007f', 'value may not contain control characters'],
    ['café', 'value may contain only ASCII characters'],
    ['emoji 🙂', 'value may contain only ASCII characters'],
    [' padded', 'value may not start or end with a space or tab'],
    ['padded\t', 'value may not start or end with a space or tab'],
  ];
  for (const [value, problem] of cases) {
    it(`${JSON.stringify(value)}: ${problem ?? 'accepted'}`, () => assert.equal(headerValueProblem(value), problem));
  }
});
