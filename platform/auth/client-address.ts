import ipaddr from 'ipaddr.js';
import { env, type TrustedProxies } from '@/env';

type RequestLike = { headers: Headers };

/**
 * The address of the client behind a request, for limits and the audit log.
 *
 * Trust model. The peer is the TCP socket's address when the server adapter hands it over
 * (`socketAddress`). Otherwise it is the last entry of `X-Forwarded-For`: Next's own server writes
 * the socket address there, but only when the request arrived without that header, so under a bare
 * `next start` a client that sends the header chooses its own peer address (per-account limits
 * still hold; per-address ones do not). Entries left of the peer are believed only as far as
 * TRUSTED_PROXIES allows: a hop count takes that many entries from the right, a CIDR list skips
 * entries while they are trusted proxies. With TRUSTED_PROXIES unset nothing forwarded is believed.
 */
export function clientAddress(req: RequestLike, { socketAddress }: { socketAddress?: string } = {}): string {
  const chain = forwardedChain(req.headers.get('x-forwarded-for'));
  let peer = socketAddress ?? chain.pop();
  if (peer === undefined) return 'unknown';
  peer = normalise(peer);
  const trust = env().TRUSTED_PROXIES;
  if (trust.kind === 'hops') {
    for (let i = 0; i < trust.hops && chain.length; i++) peer = normalise(chain.pop() as string);
  } else if (trust.kind === 'cidrs') {
    while (chain.length && isTrustedProxy(peer, trust)) peer = normalise(chain.pop() as string);
  }
  return peer;
}

/**
 * Whether the peer at `socketAddress` is a proxy whose forwarded headers (X-Forwarded-For, -Host,
 * -Proto) may be believed: with TRUSTED_PROXIES unset, none is; with a hop count, the peer is the
 * nearest proxy; with a list, the peer must be on it.
 */
export function isTrustedPeer(socketAddress: string | undefined): boolean {
  const trust = env().TRUSTED_PROXIES;
  if (trust.kind === 'none') return false;
  if (trust.kind === 'hops') return trust.hops > 0;
  return socketAddress !== undefined && isTrustedProxy(normalise(socketAddress), trust);
}

/**
 * The key a per-address limit counts under: the address itself for IPv4, its /64 for IPv6 (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would let it rotate).
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

function forwardedChain(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** One spelling per address (`::ffff:1.2.3.4` is `1.2.3.4`); anything else is kept, cut short. */
function normalise(address: string): string {
  const bare = address.replace(/^\[|\](:\d+)?$/g, '');
  if (ipaddr.isValid(bare)) return ipaddr.process(bare).toString();
  return address.slice(0, 64);
}

function isTrustedProxy(address: string, trust: Extract<TrustedProxies, { kind: 'cidrs' }>): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return trust.cidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}
