import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { resetEnv } from '@/env';
import { addressKey, clientAddress } from './client-address';

function withProxies(value: string | undefined) {
  if (value === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = value;
  resetEnv();
}
const req = (xff?: string) => ({ headers: new Headers(xff === undefined ? {} : { 'x-forwarded-for': xff }) });

describe('clientAddress', () => {
  const saved = process.env.TRUSTED_PROXIES;
  after(() => withProxies(saved));

  const cases: { proxies?: string; xff?: string; socket?: string; want: string; why: string }[] = [
    { socket: '198.51.100.7', xff: '1.2.3.4', want: '198.51.100.7', why: 'no proxy trusted: a forwarded header is ignored' },
    { socket: '::ffff:198.51.100.7', want: '198.51.100.7', why: 'an IPv4-mapped socket address is spelled as IPv4' },
    { xff: '203.0.113.5', want: '203.0.113.5', why: "without the socket address, the last entry (Next's own) is the peer" },
    { xff: '1.2.3.4, 203.0.113.5', want: '203.0.113.5', why: 'entries left of the peer are not believed' },
    { want: 'unknown', why: 'nothing known' },
    { proxies: '1', socket: '10.0.0.2', xff: '6.6.6.6, 203.0.113.9', want: '203.0.113.9', why: 'one hop: what the proxy saw' },
    { proxies: '2', socket: '10.0.0.2', xff: '6.6.6.6, 203.0.113.9, 10.0.0.9', want: '203.0.113.9', why: 'two hops' },
    { proxies: '2', socket: '10.0.0.2', xff: '203.0.113.9', want: '203.0.113.9', why: 'fewer entries than hops: the leftmost' },
    {
      proxies: '10.0.0.0/8',
      socket: '10.0.0.2',
      xff: '6.6.6.6, 203.0.113.9, 10.1.1.1',
      want: '203.0.113.9',
      why: 'CIDR list: first untrusted from the right',
    },
    {
      proxies: '10.0.0.0/8',
      socket: '198.51.100.1',
      xff: '203.0.113.9',
      want: '198.51.100.1',
      why: 'a peer outside the list is the client',
    },
    {
      proxies: '10.0.0.2, 2001:db8::/32',
      socket: '2001:db8::1',
      xff: '203.0.113.9, 10.0.0.2',
      want: '203.0.113.9',
      why: 'single address and IPv6 range',
    },
  ];
  for (const c of cases) {
    it(c.why, () => {
      withProxies(c.proxies);
      assert.equal(clientAddress(req(c.xff), { socketAddress: c.socket }), c.want);
    });
  }

  it('refuses a TRUSTED_PROXIES value that is neither a count nor addresses', () => {
    withProxies('10.0.0.0/8, not-an-ip');
    assert.throws(() => clientAddress(req('1.2.3.4')), /TRUSTED_PROXIES/);
  });

  it('counts IPv6 clients per /64 and IPv4 clients per address', () => {
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), addressKey('2001:db8:1:2:bbbb::2'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('203.0.113.5'), '203.0.113.5');
  });
});
