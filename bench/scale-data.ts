import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { createUser } from '@/lib/users/create-user';
import { createTenant } from '@/test/support/tenant';

/** What the timed requests need from a built data set (kept in the database, so a reuse finds it). */
export type ScaleMeta = {
  accountId: number;
  botLoginId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  chats: number;
  /** How the rows are distributed (buildDataSet's `shape`); absent in data sets built before it existed. */
  shape?: DataShape;
  /** Seconds the build took, load to ANALYZE (recorded by bench:scale, so a reuse can report it). */
  buildSeconds?: number;
};

/**
 * `uniform`: 100 first-name/surname pairs with a number, tags on 40 % of chats in three kinds,
 * chats split evenly between the VA and ten people. `varied`: what a support export looks like:
 * every customer named `Customer <n>` (so every name shares the same first nine characters, and a
 * number like 777 is a part of hundreds of others), skewed tags (billing on half the chats, vip on
 * 5 %, refund on 1 in 1,000), nine chats in ten held or once held by the one busy VA, and almost
 * every chat closed. Reads that hold on one shape and not the other depend on the data's shape.
 */
export type DataShape = 'uniform' | 'varied';

export type IndexBuild = { name: string; table: string; seconds: number };

const ADMIN_PASSWORD = 'correct horse battery';
export const BULK_TABLES = ['chats', 'messages', 'events', 'delivery_attempts', 'customers', 'bot_requests'];

/**
 * Builds the data set in a migrated database with set-based SQL: one tenant with `chats` chats
 * (three messages each), `customers` customers (default chats / 5), one delivered event per chat spread over 30 days
 * with its attempt (every 20th with an earlier failed attempt, every 100th failed for good), and
 * the bot's request log: three calls about each chat in the last 7 days (the default retention),
 * every 20th refused (404, 2031). The bulk tables' secondary indexes are dropped first and built
 * again afterwards, each one timed.
 */
export async function buildDataSet(
  url: string,
  chats: number,
  log: (m: string) => void,
  { customers = Math.max(1, Math.floor(chats / 5)), shape = 'uniform' }: { customers?: number; shape?: DataShape } = {},
): Promise<{ meta: ScaleMeta; builds: IndexBuild[] }> {
  const handle = await openPostgres(url, { migrate: true });
  const t = await createTenant(handle.db);
  const agents = [t.agent.id];
  for (let i = 0; i < 9; i++) {
    const a = await createUser(handle.db, {
      accountId: t.account.id,
      kind: 'agent',
      loginId: `bench-agent-${i}`,
      name: `Bench agent ${i}`,
      teamIds: [t.humanTeam.id],
      availability: 'available',
    });
    agents.push(a.id);
  }
  await handle.close();

  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const varied = shape === 'varied';
  try {
    const indexes = await sql<{ name: string; table: string; def: string }[]>`
      select i.indexname as name, i.tablename as "table", i.indexdef as def from pg_indexes i
      where i.schemaname = 'public' and i.tablename in ${sql(BULK_TABLES)}
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`;
    for (const ix of indexes) await sql.unsafe(`drop index "${ix.name}"`);
    const a = t.account.id;
    const bot = t.bot.user.id;
    const step = async (label: string, q: Promise<unknown>) => {
      const s = Date.now();
      await q;
      log(`${label}: ${((Date.now() - s) / 1000).toFixed(1)} s`);
    };
    await step(
      `${customers} customers`,
      sql`insert into customers (account_id, channel, destination_id, name)
        select ${a}, (enum_range(null::channel))[1 + g % 8], '+1555' || lpad(g::text, 8, '0'),
          case when ${varied} then 'Customer ' || g else
          (array['Ana','Ben','Chloe','Dmitri','Emma','Farid','Grace','Hugo','Ines','Jonas'])[1 + g % 10] || ' ' ||
          (array['Smith','Garcia','Muller','Rossi','Dubois','Kowalski','Silva','Nakamura','Olsen','Haddad'])[1 + (g / 10) % 10] || ' ' || g end
        from generate_series(1, ${customers}) g`,
    );
    await step(
      `${chats} chats`,
      sql`insert into chats (id, account_id, team_id, status, channel, asset_id, customer_id, assignee_id, alias_id, tags,
          created_at, updated_at, closed_at, event_seq)
        select gen_random_uuid()::text, ${a},
          case when s.bot then ${t.botTeam.id}::int else ${t.humanTeam.id}::int end,
          s.status::chat_status, cu.channel,
          (select id from assets where account_id = ${a} and channel = cu.channel limit 1), cu.id,
          case when s.status = 'queued' then null when s.bot then ${bot}::int
            else (${agents}::int[])[1 + (g / case when ${varied} then 7 else 2 end) % ${agents.length}] end,
          'alias-' || g,
          case when not ${varied} then
            case g % 10 when 0 then array['billing'] when 1 then array['sales'] when 2 then array['billing','vip'] else '{}'::text[] end
          else array_remove(array[case when g % 2 = 0 then 'billing' end, case when g % 4 = 1 then 'sales' end,
            case when g % 20 = 3 then 'vip' end, case when g % 1000 = 7 then 'refund' end], null) end,
          s.updated - interval '1 hour' * random(), s.updated, case when s.status = 'closed' then s.updated end, 1
        from generate_series(1, ${chats}) g
        join customers cu on cu.id = (select min(id) from customers where account_id = ${a}) + (g % ${customers})
        cross join lateral (select
          case when ${varied} then
            case when (g / 10) % 100 < 97 then 'closed' when (g / 10) % 100 < 98 then 'picked' when (g / 10) % 100 < 99 then 'queued' else 'onhold' end
          else case when g % 100 < 80 then 'closed' when g % 100 < 90 then 'picked' when g % 100 < 95 then 'queued' else 'onhold' end end as status,
          case when ${varied} then g % 10 <> 9 else g % 2 = 0 end as bot,
          now() - interval '60 days' * random() as updated) s`,
    );
    await step(
      `${chats * 3} messages`,
      sql`insert into messages (chat_id, account_id, transid, type, body, author_login_id, sent_at, created_at)
        select c.id, ${a}, c.id || '-' || k, (case when k = 2 then 'outbound' else 'inbound' end)::message_type,
          jsonb_build_object('text', 'Message ' || k || ' of the conversation'),
          case when k = 2 then ${t.bot.user.loginId} end, c.created_at + k * interval '1 minute', c.created_at + k * interval '1 minute'
        from chats c cross join generate_series(1, 3) k where c.account_id = ${a}`,
    );
    await step(
      `${chats} events`,
      sql`insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, status, attempt_count,
          next_attempt_at, delivered_at, failed_at, created_at, updated_at)
        select gen_random_uuid()::text, ${a}, c.id, ${bot}, 'chat.assigned', 1, jsonb_build_object('chat_id', c.id),
          (case when n % 100 = 0 then 'failed' else 'delivered' end)::event_status, case when n % 20 = 0 then 2 else 1 end,
          e.at, case when n % 100 <> 0 then e.at + interval '1 second' end, case when n % 100 = 0 then e.at + interval '1 second' end,
          e.at, e.at + interval '1 second'
        from (select id, row_number() over () as n from chats where account_id = ${a}) c
        cross join lateral (select now() - interval '30 days' * random() as at) e`,
    );
    await step(
      'delivery attempts',
      sql`insert into delivery_attempts (event_id, attempt_number, started_at, duration_ms, http_status, error, response_excerpt)
        select e.id, k, e.created_at + (k - 1) * interval '500 ms', 20 + (random() * 300)::int,
          case when e.status = 'failed' then 503 when k < e.attempt_count then 500 else 200 end, null, 'ok'
        from events e cross join lateral generate_series(1, e.attempt_count) k where e.account_id = ${a}`,
    );
    // A trxid is a version 7 UUID made from the call's time (platform/util/ids.ts): the time's 48 bits
    // in milliseconds, the version, random bits with the variant. Inserted in trxid order, as calls come.
    await step(
      `${chats * 3} bot requests`,
      sql`insert into bot_requests (account_id, virtual_agent_id, at, operation, method, path, chat_id, http_status,
          status_code, description, trxid, latency_ms, idempotency_key)
        select ${a}, ${bot}, r.at, 'updateChat', 'PATCH', '/api/v1/chats/' || r.chat_id, r.chat_id,
          case when r.n % 20 = 0 then 404 else 200 end, case when r.n % 20 = 0 then 2031 else 1000 end,
          case when r.n % 20 = 0 then 'No chat found for the given chat ID' else 'OK' end,
          (lpad(to_hex((extract(epoch from r.at) * 1000)::bigint), 12, '0') || '7' || substr(r.h, 1, 3)
            || substr('89ab', 1 + (get_byte(decode(substr(r.h, 4, 2), 'hex'), 0) % 4), 1) || substr(r.h, 6, 15))::uuid,
          5 + r.n % 40, null
        from (select c.id as chat_id, row_number() over () as n, date_trunc('milliseconds', now() - interval '7 days' * random()) as at,
            md5(random()::text) as h
          from chats c cross join generate_series(1, 3) k where c.account_id = ${a}) r
        order by r.at`,
    );
    const builds: IndexBuild[] = [];
    for (const ix of indexes) {
      const s = Date.now();
      await sql.unsafe(ix.def);
      builds.push({ name: ix.name, table: ix.table, seconds: (Date.now() - s) / 1000 });
      log(`index ${ix.name}: ${((Date.now() - s) / 1000).toFixed(1)} s`);
    }
    await step('vacuum analyze', sql`vacuum analyze`);
    const meta: ScaleMeta = {
      accountId: a,
      botLoginId: t.bot.user.loginId,
      apiKey: t.bot.apiKey,
      adminEmail: `admin-${t.account.name.replace('Tenant ', '')}@example.test`,
      adminPassword: ADMIN_PASSWORD,
      chats,
      shape,
    };
    await sql`create table bench_meta (meta jsonb not null, builds jsonb not null)`;
    await sql`insert into bench_meta values (${sql.json(meta)}, ${sql.json(builds)})`;
    return { meta, builds };
  } finally {
    await sql.end();
  }
}

/** Records the build's duration beside the data set. */
export async function noteBuildSeconds(url: string, seconds: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`update bench_meta set meta = meta || ${sql.json({ buildSeconds: Math.round(seconds) })}`;
  } finally {
    await sql.end();
  }
}

/** The data set a previous run built in this database, if any. */
export async function readDataSet(url: string): Promise<{ meta: ScaleMeta; builds: IndexBuild[] } | null> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ meta: ScaleMeta; builds: IndexBuild[] }[]>`
      select meta, builds from bench_meta where to_regclass('bench_meta') is not null`.catch(() => []);
    return row ?? null;
  } finally {
    await sql.end();
  }
}
