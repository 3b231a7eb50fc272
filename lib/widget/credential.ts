import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The widget's customer credential: `wv1.<payload>.<signature>`, the payload being base64url JSON
 * `{a: app id, v: livechat id, e: expiry (epoch seconds)}` and the signature HMAC-SHA256 of it
 * under the asset's widget key. Nothing is stored per customer; replacing the key ends them all.
 */
export type CredentialClaims = { assetId: number; livechatId: string; expiresAt: Date };

const PREFIX = 'wv1';

export function signCredential(key: string, claims: CredentialClaims): string {
  const payload = Buffer.from(
    JSON.stringify({ a: claims.assetId, v: claims.livechatId, e: Math.floor(claims.expiresAt.getTime() / 1000) }),
  ).toString('base64url');
  return `${PREFIX}.${payload}.${mac(key, payload)}`;
}

/** The claims a credential states, not yet checked: which asset's key to check it with. */
export function readCredential(token: string): (CredentialClaims & { payload: string; signature: string }) | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX || parts[1].length > 400) return null;
  try {
    const raw = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { a?: unknown; v?: unknown; e?: unknown };
    if (!Number.isSafeInteger(raw.a) || typeof raw.v !== 'string' || !Number.isSafeInteger(raw.e)) return null;
    return {
      assetId: raw.a as number,
      livechatId: raw.v,
      expiresAt: new Date((raw.e as number) * 1000),
      payload: parts[1],
      signature: parts[2],
    };
  } catch {
    return null;
  }
}

export function signatureMatches(key: string, payload: string, signature: string): boolean {
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function mac(key: string, payload: string): string {
  return createHmac('sha256', key).update(`${PREFIX}.${payload}`).digest('base64url');
}
