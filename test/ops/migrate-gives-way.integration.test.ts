/**
 * Migrations during a rolling upgrade (db/migrate.ts, applyMigrationsGivingWay): a migration that
 * cannot lock a table a serving instance is using steps back and tries again, instead of failing the
 * start or queueing that instance's requests behind it. The opt-in `npm run drill:upgrade` runs the
 * whole upgrade under load; this is the mechanism alone, on a PostgreSQL database of its own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Db } from '@/db/client';
import { applyMigrationsGivingWay } from '@/db/migrate';
import { env } from '@/env';
import { describeOrSkip } from '../support/describe-or-skip';

const skip = env().DATABASE_URL ? false : 'needs PostgreSQL (set DATABASE_URL): table locks between sessions';

/** A migrations folder as drizzle-kit writes it, with the given statements as migrations. */
function folder(migrations: string[], firstWhen = 1_700_000_000_000): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const entries = migrations.map((_, idx) => ({ idx, version: '7', when: firstWhen + idx, tag: `000${idx}_m`, breakpoints: true }));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
  for (const [idx, text] of migrations.entries()) fs.writeFileSync(path.join(dir, `000${idx}_m.sql`), text);
  return dir;
}

describeOrSkip('migrations give way to serving instances', skip, () => {
  let admin: postgres.Sql;
  let name: string;
  let url: string;
  const open: postgres.Sql[] = [];
  const connect = (options: postgres.Options<Record<string, never>> = {}) => {
    const c = postgres(url, { max: 1, onnotice: () => {}, ...options });
    open.push(c);
    return c;
  };

  before(async () => {
    admin = postgres(env().DATABASE_URL as string, { max: 1, onnotice: () => {} });
    name = `va_test_giveway_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const u = new URL(env().DATABASE_URL as string);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  after(async () => {
    await Promise.all(open.map((c) => c.end({ timeout: 1 })));
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('a migration that cannot lock its table in time rolls back, tries again, and is applied once the table is free; earlier ones stay applied', async () => {
    const dir = folder(['CREATE TABLE "things" ("id" integer PRIMARY KEY);', 'ALTER TABLE "things" ADD COLUMN "label" text;']);
    const migrator = connect({ connection: { lock_timeout: 200 } });
    const db = drizzle(migrator) as unknown as Db;
    // The first migration alone, as the previous release left the database.
    await applyMigrationsGivingWay(db, folder(['CREATE TABLE "things" ("id" integer PRIMARY KEY);']));
    // A serving instance reads the table in a transaction that lasts about a second.
    const serving = connect();
    let release: () => void = () => {};
    let reading: () => void = () => {};
    const read = new Promise<void>((r) => {
      reading = r;
    });
    const held = serving.begin(async (tx) => {
      await tx`select * from things`;
      reading();
      await new Promise<void>((r) => {
        release = r;
      });
    });
    await read;
    const retries: string[] = [];
    const applying = applyMigrationsGivingWay(db, dir, { onRetry: (_attempt, code) => retries.push(code) });
    await new Promise((r) => setTimeout(r, 1_000));
    release();
    await held;
    await applying;
    assert.ok(retries.length >= 1, 'the migration gave way at least once');
    assert.ok(
      retries.every((c) => c === '55P03'),
      retries.join(),
    );
    const columns = await migrator`select column_name from information_schema.columns where table_name = 'things' order by column_name`;
    assert.deepEqual(
      columns.map((c) => c.column_name),
      ['id', 'label'],
    );
    const [{ n }] = await migrator`select count(*)::int as n from drizzle.__drizzle_migrations`;
    assert.equal(n, 2);
    // Applied migrations are not applied again.
    await applyMigrationsGivingWay(db, dir);
    const [{ again }] = await migrator`select count(*)::int as again from drizzle.__drizzle_migrations`;
    assert.equal(again, 2);
  });

  it('any other failure is not retried', async () => {
    const migrator = connect({ connection: { lock_timeout: 200 } });
    const retries: string[] = [];
    await assert.rejects(
      applyMigrationsGivingWay(
        drizzle(migrator) as unknown as Db,
        folder(['ALTER TABLE "missing" ADD COLUMN "x" text;'], 1_800_000_000_000),
        {
          onRetry: (_a, code) => retries.push(code),
        },
      ),
      /missing/,
    );
    assert.deepEqual(retries, []);
  });
});
