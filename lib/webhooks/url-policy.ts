import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { env } from '@/env';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * IPv6 ranges whose addresses carry an IPv4 address inside (or reach one through a translator):
 * IPv4-compatible `::/96`, IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16` and Teredo `2001::/32`. All are refused,
 * whatever IPv4 address they embed: a webhook host has a native address, and checking the embedded
 * one for each form is how filters get bypassed.
 */
const EMBEDS_IPV4: [ipaddr.IPv6, number][] = [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
].map(([a, bits]) => [ipaddr.IPv6.parse(a as string), bits as number]);

/**
 * Whether an IP address may receive webhooks: only globally routable unicast. Loopback, private,
 * link-local (cloud metadata), CGNAT, unique-local, multicast, reserved, `0.0.0.0` and every
 * IPv6 form that embeds an IPv4 address are refused, whatever notation they arrive in.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const ip = ipaddr.parse(bare);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (EMBEDS_IPV4.some(([range, bits]) => v6.match(range, bits))) return false;
    // Zone IDs (`fe80::1%eth0`) name a local interface.
    if (v6.zoneId) return false;
  }
  return ip.range() === 'unicast';
}

function allowPrivate(): boolean {
  return env().WEBHOOK_ALLOW_PRIVATE;
}

/**
 * The registration check. The URL must be absolute https (http too when private addresses are
 * allowed), without credentials, and its host must not be, or resolve to, a refused address.
 * The WHATWG parser has already turned numeric forms (`2130706433`, `0x7f.1`) into dotted IPv4.
 */
export async function checkWebhookUrl(raw: string, opts: { resolve?: boolean } = {}): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  const permissive = allowPrivate();
  if (url.protocol !== 'https:' && !(permissive && url.protocol === 'http:')) {
    return { ok: false, reason: permissive ? 'only http and https URLs are accepted' : 'webhook URLs must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed; use a static header' };
  if (permissive) return { ok: true, url };

  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host)
      ? { ok: true, url }
      : { ok: false, reason: `${host} is a private, loopback, link-local or reserved address` };
  }
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return { ok: false, reason: `${host} is not a public host name` };
  }
  if (opts.resolve === false) return { ok: true, url };
  try {
    await resolvePublic(host);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  return { ok: true, url };
}

/**
 * The delivery-time check, after DNS: resolves the host and returns one public address to connect
 * to (pinned, so a second lookup cannot swap in a private one). Throws when none may be used.
 */
export async function resolvePublic(host: string): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) {
    if (!allowPrivate() && !isPublicAddress(bare)) throw new Error(`${bare} is a refused address`);
    return { address: bare, family: ipaddr.parse(bare).kind() === 'ipv6' ? 6 : 4 };
  }
  let found: { address: string; family: number }[];
  try {
    found = await lookup(bare, { all: true, verbatim: true });
  } catch {
    throw new Error(`${bare} could not be resolved`);
  }
  if (!found.length) throw new Error(`${bare} could not be resolved`);
  if (!allowPrivate()) {
    const refused = found.find((a) => !isPublicAddress(a.address));
    if (refused) throw new Error(`${bare} resolves to ${refused.address}, a refused address`);
  }
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}

export { checkStaticHeaders, RESERVED_HEADERS } from './static-headers';
