import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import type { BotAuth } from './types';

/**
 * Access tokens this process has checked recently, so a bot's calls in a burst cost one token
 * look-up per TOKEN_CACHE_SECONDS instead of one each. Only valid tokens of enabled VAs are kept;
 * a token's own expiry is checked on every use. A revocation (key rotation, a VA disabled) forgets
 * the VA's tokens here at once and, on PostgreSQL, in every other instance through a notification
 * sent by the revoking transaction (so it arrives when the revocation commits). Should that
 * notification be lost (a listener reconnecting), the entry still ends after TOKEN_CACHE_SECONDS.
 */
type Entry = { auth: BotAuth; expiresAt: number };
type Shared = { entries: LRUCache<string, Entry>; unlisten?: () => Promise<void> };

const CHANNEL = 'va_tokens_revoked';
/** Entries kept at most; past it the least recently used go first. */
const MAX_ENTRIES = 10_000;

const store = processStore<{ __vaTokenCache?: Shared }>();
store.__vaTokenCache ??= { entries: new LRUCache({ max: MAX_ENTRIES }) };
const shared = store.__vaTokenCache;

/** The VA a cached token stands for, or null when it is not cached (or no longer valid). */
export function cachedToken(hash: string): BotAuth | null {
  const entry = shared.entries.get(hash);
  if (!entry) return null;
  if (entry.expiresAt <= Date.now()) {
    shared.entries.delete(hash);
    return null;
  }
  return entry.auth;
}

/** Keeps a token just checked against the database, for TOKEN_CACHE_SECONDS. */
export function cacheToken(hash: string, auth: BotAuth, expiresAt: Date): void {
  const ttl = env().TOKEN_CACHE_SECONDS;
  if (ttl <= 0) return;
  shared.entries.set(hash, { auth, expiresAt: expiresAt.getTime() }, { ttl: ttl * 1000 });
}

/** Forgets this process's cached tokens of one VA. */
export function forgetTokensOf(userId: number): void {
  const hashes = [...shared.entries.entries()].filter(([, entry]) => entry.auth.userId === userId).map(([hash]) => hash);
  for (const hash of hashes) shared.entries.delete(hash);
}

/** Forgets every cached token of this process (tests that change tokens behind the API's back). */
export function forgetAllTokens(): void {
  shared.entries.clear();
}

/**
 * Call inside the transaction that revokes a VA's tokens: forgets them here now, and queues the
 * notification that makes every instance (this one included) forget them when it commits.
 */
export async function revokeCachedTokens(tx: Db, userId: number): Promise<void> {
  forgetTokensOf(userId);
  await tx.execute(sql`select pg_notify(${CHANNEL}, ${String(userId)})`);
}

type PostgresClient = { listen: (channel: string, fn: (payload: string) => void) => Promise<{ unlisten: () => Promise<void> }> };

/** On PostgreSQL, listens for revocations committed by any instance. Does nothing on PGlite. */
export async function listenForRevokedTokens(db: Db): Promise<void> {
  const client = (db as unknown as { $client?: Partial<PostgresClient> }).$client;
  if (typeof client?.listen !== 'function' || shared.unlisten) return;
  const sub = await (client as PostgresClient).listen(CHANNEL, (payload) => {
    const userId = Number(payload);
    if (Number.isInteger(userId)) forgetTokensOf(userId);
  });
  shared.unlisten = sub.unlisten;
  logger.debug('listening for revoked tokens');
}

/** Stops listening (shutdown); the cache is emptied, since revocations are no longer heard. */
export async function stopListeningForRevokedTokens(): Promise<void> {
  const unlisten = shared.unlisten;
  shared.unlisten = undefined;
  shared.entries.clear();
  await unlisten?.().catch(() => {});
}
