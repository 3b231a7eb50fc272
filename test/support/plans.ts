import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { buildDataSet, type ScaleMeta } from '@/bench/scale-data';
import { type Db, openPostgres } from '@/db/client';

/**
 * The plan tests' scratch database and their reading of EXPLAIN. Plans only mean something on
 * PostgreSQL with tables big enough for the planner to care, so each plan suite builds bench:scale's
 * data set (`chats` chats with their messages and events, then VACUUM ANALYZE) in a database of
 * its own beside DATABASE_URL's, and drops it afterwards.
 */

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };
type Query = { sql: string; params: unknown[] } | { toSQL: () => { sql: string; params: unknown[] } };

/** What a plan reads: its sequential scans (of the big tables), its sorts, the indexes it uses. */
type Plan = { seqScans: string[]; sorts: number; indexes: string[] };

export type PlanDatabase = {
  /** One connection for statements of the test's own (extra rows, ANALYZE, ids to look up). */
  raw: postgres.Sql;
  /** The application's handle, for the queries under test. */
  db: Db;
  meta: ScaleMeta;
  /** EXPLAIN of `query`; `analyze` also runs it and returns the plan as text (for failure messages). */
  explain(query: Query): Promise<Plan>;
  explainAnalyze(query: Query): Promise<Plan & { text: string }>;
  /**
   * EXPLAIN of the generic plan PostgreSQL may settle on for a statement the application prepares
   * once (after five runs it may stop planning for each call's values): the query prepared with
   * `plan_cache_mode = force_generic_plan`, then run through EXPLAIN EXECUTE with `query`'s values.
   */
  explainGeneric(query: Query): Promise<Plan>;
  drop(): Promise<void>;
};

/**
 * Builds the data set in a new database named after `label`. `bigTables` names the tables whose
 * sequential scans count (a small table read whole is the planner's right); unset, every one counts.
 */
export async function planDatabase(
  url: string,
  label: string,
  { chats, customers, bigTables }: { chats: number; customers?: number; bigTables?: Iterable<string> },
): Promise<PlanDatabase> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = `va_test_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const { meta } = await buildDataSet(dbUrl.toString(), chats, () => {}, customers ? { customers } : {});
  const handle = await openPostgres(dbUrl.toString(), { migrate: false });
  const raw = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  const big = bigTables ? new Set(bigTables) : null;

  const read = async (query: Query): Promise<Plan & { sql: string; params: never[] }> => {
    const { sql, params } = 'toSQL' in query ? query.toSQL() : query;
    const [row] = await raw.unsafe(`EXPLAIN (FORMAT JSON) ${sql}`, params as never[]);
    return { ...planOf(row), sql, params: params as never[] };
  };
  const planOf = (row: postgres.Row): Plan => {
    const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
    const all = nodes((row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan);
    return {
      seqScans: all
        .filter((n) => n['Node Type'] === 'Seq Scan' && (!big || big.has(n['Relation Name'] ?? '')))
        .map((n) => n['Relation Name'] ?? ''),
      sorts: all.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort').length,
      indexes: all.map((n) => n['Index Name']).filter((x): x is string => Boolean(x)),
    };
  };
  /** A value as an SQL literal for EXECUTE's arguments (the statement's own types apply to it). */
  const literal = (v: unknown) =>
    v === null || v === undefined ? 'null' : `'${String(v instanceof Date ? v.toISOString() : v).replace(/'/g, "''")}'`;

  return {
    raw,
    db: handle.db,
    meta,
    explain: async (query) => {
      const { sql: _sql, params: _params, ...plan } = await read(query);
      return plan;
    },
    explainGeneric: async (query) => {
      const { sql, params } = 'toSQL' in query ? query.toSQL() : query;
      await raw.unsafe('set plan_cache_mode = force_generic_plan');
      try {
        await raw.unsafe(`prepare generic_plan as ${sql}`);
        const [row] = await raw.unsafe(`EXPLAIN (FORMAT JSON) execute generic_plan(${params.map(literal).join(', ')})`);
        return planOf(row);
      } finally {
        await raw.unsafe('deallocate generic_plan');
        await raw.unsafe('reset plan_cache_mode');
      }
    },
    explainAnalyze: async (query) => {
      const { sql, params, ...plan } = await read(query);
      const text = await raw.unsafe(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, params);
      return { ...plan, text: text.map((r) => r['QUERY PLAN']).join('\n') };
    },
    drop: async () => {
      await raw.end();
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
