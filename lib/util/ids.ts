import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function newChatId(): string {
  return randomUUID();
}

/** Trace IDs: `transid` of messages, `transaction_id` of events, `trxid` of responses. */
export function newTraceId(): string {
  return randomUUID();
}
