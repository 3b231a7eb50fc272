import { Webhook } from 'standardwebhooks';

const signers = new Map<string, Webhook>();

/**
 * The `webhook-signature` header value of one payload: `v1,<base64 HMAC-SHA256>` under each secret
 * given (the current one, and the previous one during a rotation's overlap), space-separated, as
 * Standard Webhooks allows. Webhook deliveries and pulled events are signed here alike.
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
  return secrets
    .filter((s): s is string => Boolean(s))
    .map((secret) => signerFor(secret).sign(transactionId, at, payload))
    .join(' ');
}

/**
 * The signer for a `whsec_` secret. The key is decoded here rather than by the library, which
 * rejects the base64url alphabet that secrets issued before the fix used; Node reads both alphabets.
 */
function signerFor(secret: string): Webhook {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size >= 1_000) signers.clear();
    signer = new Webhook(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'), { format: 'raw' });
    signers.set(secret, signer);
  }
  return signer;
}
