import { createHmac } from 'node:crypto';

const keys = new Map<string, Buffer>();

/**
 * The `webhook-signature` header value of one payload: `v1,<base64 HMAC-SHA256>` under each secret
 * given (the current one, and the previous one during a rotation's overlap), space-separated, as
 * Standard Webhooks allows. Webhook deliveries and pulled events are signed here alike.
 *
 * The HMAC is node:crypto's over `<id>.<unix seconds>.<payload>`, the scheme the Standard Webhooks
 * libraries sign with; their own signer hashes in JavaScript, at several times the CPU per event
 * (sign-webhook.test.ts checks that their verifier accepts ours).
 */
export function signWebhook({
  transactionId,
  at,
  payload,
  secrets,
}: {
  transactionId: string;
  at: Date;
  payload: string;
  secrets: (string | null | undefined)[];
}): string {
  const signed = `${transactionId}.${Math.floor(at.getTime() / 1000)}.${payload}`;
  let header = '';
  for (const secret of secrets) {
    if (!secret) continue;
    const mac = createHmac('sha256', keyOf(secret)).update(signed).digest('base64');
    header = header ? `${header} v1,${mac}` : `v1,${mac}`;
  }
  return header;
}

/**
 * The key of a `whsec_` secret. Node's base64 decoder reads both alphabets, so secrets issued in
 * base64url (before that was fixed) sign as they always did.
 */
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 1_000) keys.clear();
    key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    keys.set(secret, key);
  }
  return key;
}
