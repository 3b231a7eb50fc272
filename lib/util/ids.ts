import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

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

/**
 * Trace IDs: `transid` of messages, `transaction_id` of events, `trxid` of responses. Version 7
 * UUIDs (RFC 9562): they start with the time, so each index over them (messages, events, the
 * request log) grows at its right edge instead of touching a random page per insert. Chat IDs stay
 * random (version 4): people search chats by the first characters of the ID, which must tell chats
 * apart.
 */
export function newTraceId(): string {
  return uuidv7();
}
