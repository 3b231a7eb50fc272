import { eq, sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { getDb } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { prepared } from '@/platform/util/prepared';

/** What the store returns for a key: points used in the window and ms until the window ends. */
type Row = { points: number; msLeft: number };

/** A window of "forever" (rate-limiter-flexible's duration 0): a hundred years. */
const FOREVER_MS = 100 * 365 * 24 * 3600_000;

// One round trip per hit, timed by the database's clock so every instance agrees on the window.
// A window that has ended starts again at this hit (fixed window, as RateLimiterMemory counts);
// `force` (block, set) overwrites the row.
const hitStatement = prepared('rate_limit_hit', (db) =>
  db
    .insert(rateLimits)
    .values({
      key: sql.placeholder('key'),
      points: sql.placeholder('points'),
      expiresAt: sql`now() + ${sql.placeholder('ms')}::float8 * interval '1 millisecond'`,
    })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        points: sql`case when ${sql.placeholder('force')}::boolean or ${rateLimits.expiresAt} <= now() then excluded.points
          else ${rateLimits.points} + excluded.points end`,
        expiresAt: sql`case when ${sql.placeholder('force')}::boolean or ${rateLimits.expiresAt} <= now() then excluded.expires_at
          else ${rateLimits.expiresAt} end`,
      },
    })
    .returning({
      points: rateLimits.points,
      msLeft: sql<number>`extract(epoch from ${rateLimits.expiresAt} - now())::float8 * 1000`.mapWith(Number),
    }),
);

const getStatement = prepared('rate_limit_get', (db) =>
  db
    .select({
      points: rateLimits.points,
      msLeft: sql<number>`extract(epoch from ${rateLimits.expiresAt} - now())::float8 * 1000`.mapWith(Number),
    })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${sql.placeholder('key')} and ${rateLimits.expiresAt} > now()`),
);

/**
 * rate-limiter-flexible's store limiter over our own database handle (the `rate_limits` table),
 * so every instance on one PostgreSQL database counts against the same budget. It keeps the
 * library's behaviour (consume, reward, get, delete, block, `customDuration`, in-memory blocking)
 * and replaces only the store access: the library's Drizzle store builds its queries on every
 * call (unprepared, on the bot API's hot path) and loads drizzle-orm by a dynamic import of a
 * computed name, and needs a handle when it is built; these are prepared statements on the handle
 * `getDb()` gives at each call (tests swap it).
 */
export class DatabaseRateLimiter extends RateLimiterDrizzle {
  constructor(opts: { keyPrefix: string; points: number; duration: number; inMemoryBlockOnConsumed?: number }) {
    // The parent wants a schema and a client; the store access below uses neither.
    super({ ...opts, schema: rateLimits, storeClient: getDb, clearExpiredByTimeout: false } as ConstructorParameters<
      typeof RateLimiterDrizzle
    >[0]);
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    const db = await getDb();
    const [row] = await hitStatement(db).execute({ key, points, ms: msDuration > 0 ? msDuration : FOREVER_MS, force: forceExpire });
    return row;
  }

  async _get(key: string): Promise<Row | null> {
    const [row] = await getStatement(await getDb()).execute({ key });
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const rows = await (await getDb()).delete(rateLimits).where(eq(rateLimits.key, key)).returning({ key: rateLimits.key });
    return rows.length > 0;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: Row): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - row.points, 0),
      Math.max(Math.floor(row.msLeft), 0),
      row.points,
      row.points === changedPoints,
    );
  }
}
