import { performance } from 'node:perf_hooks';
const { default: postgres } = await import('postgres');
const sql = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1 });
await sql`create temp table if not exists tt (x int)`;
await sql`create table if not exists scratch_commit_probe (x int)`;
for (const label of ['select', 'insert-commit']) {
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) {
    if (label === 'select') await sql`select 1`;
    else await sql`insert into scratch_commit_probe values (1)`;
  }
  console.log(label, ((performance.now() - t0) / 100).toFixed(2), 'ms');
}
console.log(await sql`show synchronous_commit`, await sql`show fsync`, await sql`show shared_buffers`);
await sql`drop table scratch_commit_probe`;
await sql.end();
