/**
 * npm run bench:request-log: what writing the bot request log costs per row, by the statement that
 * writes a batch. A fresh database beside DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres),
 * migrated; rows like bench:api's (a successful PATCH about one of 5,000 chats, a fresh trxid each);
 * BENCH_ROWS (200,000) rows in batches of BATCH_ROWS into an emptied table, BENCH_REPEATS (3) times
 * each way, in turn. For each: the PostgreSQL backend's CPU (from /proc, so the server must be on this
 * machine) and this process's CPU per row, which includes building the statement's parameters and
 * the driver's work. The ways:
 *   - copy: the shipping way: RequestLogBuffer encodes each row as a line of COPY text as it comes,
 *     and each batch goes as COPY FROM STDIN (Handle.copyIn on PostgreSQL);
 *   - arrays: each column one array literal, unnested by an INSERT (the way before it);
 *   - json: the rows as one JSON document unpacked with json_to_recordset (the way before that);
 *   - driver-arrays: each column a JavaScript array, serialised by postgres.js.
 * Prints a markdown table; the database is dropped afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Db, openPostgres, postgresCopyIn } from '@/db/client';
import { BATCH_ROWS, type BotRequestRow, COPY_TARGET, RequestLogBuffer } from '@/lib/request-log/request-log-buffer';
import { patchRow } from '@/test/support/bot-request-row';
import { processCpuMs } from './servers';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const CHATS = Array.from({ length: 5000 }, () => randomUUID());
const COLUMNS =
  'account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status, status_code, description, trxid, latency_ms, idempotency_key';

const row = (i: number): BotRequestRow => patchRow(CHATS[i % CHATS.length]);

/** A PostgreSQL array literal of texts: each quoted, `"` and `\\` escaped, null as NULL. */
function textArray(values: (string | null | undefined)[]): string {
  return `{${values.map((v) => (v == null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}

function intArray(values: (number | null | undefined)[]): string {
  return `{${values.map((v) => (v == null ? 'NULL' : String(v))).join(',')}}`;
}

const WAYS: Record<string, (db: Db, raw: postgres.Sql, rows: BotRequestRow[]) => Promise<unknown>> = {
  copy: async (_db, raw, rows) => {
    const buffer = new RequestLogBuffer(
      (data) => postgresCopyIn(raw)(COPY_TARGET, data),
      () => rows.length,
    );
    for (const r of rows) buffer.push(r);
    await buffer.flush();
    if (buffer.counts().written !== rows.length) throw new Error('copy: rows not written');
  },
  arrays: (db, _raw, rows) => {
    const col = <K extends keyof BotRequestRow>(key: K) => rows.map((r) => r[key]);
    return db.execute(sql`insert into bot_requests (${sql.raw(COLUMNS)})
      select a, v, to_timestamp(t::float8 / 1000), o, m, p, c, h, s, d, x, l, k
      from unnest(${intArray(col('accountId'))}::text::int[], ${intArray(col('virtualAgentId'))}::text::int[],
        ${intArray(rows.map((r) => r.at.getTime()))}::text::bigint[], ${textArray(col('operation'))}::text::text[],
        ${textArray(col('method'))}::text::text[], ${textArray(col('path'))}::text::text[], ${textArray(col('chatId'))}::text::text[],
        ${intArray(col('httpStatus'))}::text::int[], ${intArray(col('statusCode'))}::text::int[],
        ${textArray(col('description'))}::text::text[], ${textArray(col('trxid'))}::text::uuid[], ${intArray(col('latencyMs'))}::text::int[],
        ${textArray(col('idempotencyKey'))}::text::text[]) as r(a, v, t, o, m, p, c, h, s, d, x, l, k)`);
  },
  json: (db, _raw, rows) =>
    db.execute(sql`insert into bot_requests (${sql.raw(COLUMNS)})
      select "accountId", "virtualAgentId", "at", "operation", "method", "path", "chatId", "httpStatus", "statusCode",
        "description", "trxid", "latencyMs", "idempotencyKey"
      from json_to_recordset(${JSON.stringify(rows)}::json) as r("accountId" int, "virtualAgentId" int, "at" timestamptz,
        "operation" text, "method" text, "path" text, "chatId" text, "httpStatus" int, "statusCode" int, "description" text,
        "trxid" uuid, "latencyMs" int, "idempotencyKey" text)`),
  'driver-arrays': (_db, raw, rows) => {
    const columns = COLUMNS.split(', ');
    const types = ['int', 'int', 'timestamptz', 'text', 'text', 'text', 'text', 'int', 'int', 'text', 'uuid', 'int', 'text'];
    const keys = Object.keys(rows[0]) as (keyof BotRequestRow)[];
    const params = keys.map((k) => rows.map((r) => (k === 'at' ? r.at.toISOString() : r[k])));
    return raw.unsafe(
      `insert into bot_requests (${COLUMNS}) select * from unnest(${columns.map((_, i) => `$${i + 1}::${types[i]}[]`).join(', ')})`,
      params as never,
    );
  },
};

const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
const name = `va_bench_log_${randomBytes(3).toString('hex')}`;
await admin.unsafe(`CREATE DATABASE ${name}`);
const url = new URL(baseUrl);
url.pathname = `/${name}`;
// Migrated by the app's own migrator, then closed: the ways below use clients of their own.
const { close } = await openPostgres(url.toString(), { migrate: true });
// One connection per client, so one backend does (and is charged for) each way's writes. Drizzle
// changes its client's type serialisers, so the driver's own arrays get a client of their own.
const raw = postgres(url.toString(), { max: 1, onnotice: () => {} });
const forDrizzle = postgres(url.toString(), { max: 1, onnotice: () => {} });
const dbOnRaw = (await import('drizzle-orm/postgres-js')).drizzle(forDrizzle) as unknown as Db;
const pidOf = async (client: postgres.Sql) => (await client<{ pid: number }[]>`select pg_backend_pid() as pid`)[0].pid;
const pids = { raw: await pidOf(raw), drizzle: await pidOf(forDrizzle) };
await close();

const results: Record<string, { pg: number[]; node: number[]; wal: number[] }> = {};
// The cluster's WAL (only this benchmark writes to it while it runs): what each row adds to the
// stream every commit of the application waits to flush.
const walBytes = async () => Number((await admin<{ b: string }[]>`select wal_bytes::text as b from pg_stat_wal`)[0].b);
try {
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const [way, write] of Object.entries(WAYS)) {
      const rows = Array.from({ length: ROWS }, (_, i) => row(i));
      await raw`truncate bot_requests`;
      await raw`checkpoint`;
      const pid = way === 'driver-arrays' || way === 'copy' ? pids.raw : pids.drizzle;
      const wal0 = await walBytes();
      const pg0 = processCpuMs(pid) ?? Number.NaN;
      const node0 = process.cpuUsage();
      for (let i = 0; i < rows.length; i += BATCH_ROWS) await write(dbOnRaw, raw, rows.slice(i, i + BATCH_ROWS));
      const node = process.cpuUsage(node0);
      const pgUs = (((processCpuMs(pid) ?? Number.NaN) - pg0) * 1000) / ROWS;
      const nodeUs = (node.user + node.system) / ROWS;
      const walPerRow = ((await walBytes()) - wal0) / ROWS;
      const [{ n }] = await raw<{ n: number }[]>`select count(*)::int as n from bot_requests`;
      if (n !== ROWS) throw new Error(`${way}: ${n} rows written, not ${ROWS}`);
      results[way] ??= { pg: [], node: [], wal: [] };
      results[way].pg.push(pgUs);
      results[way].node.push(nodeUs);
      results[way].wal.push(walPerRow);
      console.error(
        `${way} ${rep + 1}/${REPEATS}: PostgreSQL ${pgUs.toFixed(1)} µs/row, Node ${nodeUs.toFixed(1)} µs/row, WAL ${walPerRow.toFixed(0)} bytes/row`,
      );
    }
  }
} finally {
  await raw.end();
  await forDrizzle.end();
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `Run ${new Date().toISOString()} with \`npm run bench:request-log\`: ${ROWS.toLocaleString('en')} rows in batches of ${BATCH_ROWS}, ${REPEATS} times each way in turn, on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}; medians.\n`,
);
console.log('| way | PostgreSQL µs/row | Node µs/row | both | WAL bytes/row |\n|---|---:|---:|---:|---:|');
for (const [way, r] of Object.entries(results)) {
  const pg = median(r.pg);
  const node = median(r.node);
  console.log(`| ${way} | ${pg.toFixed(1)} | ${node.toFixed(1)} | ${(pg + node).toFixed(1)} | ${median(r.wal).toFixed(0)} |`);
}
