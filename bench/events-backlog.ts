/**
 * The backlog cases of bench:events (see bench/events.ts): many chats' events waiting for one VA or
 * for several at once, the same job done by graphile-worker (the peer), and the checks of what
 * arrived. Used by bench/events.ts only.
 *
 * The peer is graphile-worker 0.18 tuned as its performance page recommends and as a user who
 * measured it would (startPeer says what and why): its local queue (batched fetches, one job per
 * named queue each), batched completions, one pool of at most PEER_POOL_MAX connections that the
 * task shares, and the task's attempt rows written together for the tasks that finish together.
 * Untuned (one get_job per worker, a second pool as large as the first) it drained 47 events/s at
 * c24 on the loaded machine (load average ~10), 414 tuned within the hour, and at c128 PostgreSQL
 * refused its connections. Each drain reports graphile-worker's task errors (a failed job is retried
 * behind its chat's later events), empty fetches and where the task's time went, so a regression
 * of the peer's tuning shows in the log.
 */

import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { WorkerEvents } from 'graphile-worker';
import { Webhook } from 'standardwebhooks';

/** At the receiver: id, latency key, time, path, signature (1 verified, 0 bad, -1 none expected), chat id, order in chat. */
export type Arrival = [
  webhookId: string,
  key: string | null,
  at: number,
  path: string,
  sig: number,
  chatId: string | null,
  ord: number | null,
];

type Sql = import('postgres').Sql;

/** `n` copies of a chat (same account, team, asset, customer, assignee) with new ids; answers the ids. */
export async function cloneChats(sql: Sql, { templateChatId, n, prefix }: { templateChatId: string; n: number; prefix: string }) {
  const rows = await sql<{ id: string }[]>`
    insert into chats
    select (jsonb_populate_record(null::chats, to_jsonb(c) || jsonb_build_object('id', ${prefix} || lpad(g::text, 5, '0')))).*
    from chats c, generate_series(1, ${n}) g
    where c.id = ${templateChatId}
    returning id`;
  return rows.map((r) => r.id);
}

/**
 * Outbox rows as the app writes them (a message.received body per row, per-chat seq, the text
 * `backlog message <g>` giving the order), for several VAs in one transaction: every VA's
 * backlog has the same arrival times, round-robin over its chats, as when several bots come back
 * from an outage at once.
 */
export async function insertBacklogs(
  sql: Sql,
  backlogs: { accountId: number; vaId: number; chatIds: string[] }[],
  perChat: number,
): Promise<number> {
  let total = 0;
  await sql.begin(async (tx) => {
    for (const { accountId, vaId, chatIds } of backlogs) {
      await tx`
        with rows as (
          select gen_random_uuid()::text as tid, c.id as chat_id, c.n, g
          from (select id, row_number() over (order by id) as n from chats where id = any(${chatIds})) c, generate_series(1, ${perChat}) g
        )
        insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at)
        select tid, ${accountId}, chat_id, ${vaId}, 'message.received', 1000 + g,
          jsonb_build_object(
            'event_type', 'message.received', 'channel', 'sms', 'chat_id', chat_id, 'asset', '1', 'destination_id', '+15550000000',
            'subject', '', 'transaction_id', tid,
            'payload', jsonb_build_object('messages', jsonb_build_array(jsonb_build_object(
              'transid', gen_random_uuid()::text, 'type', 'text', 'text', 'backlog message ' || g, 'attachments', '[]'::jsonb,
              'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'interactive_response', null)))),
          now() - ((${perChat} - g) * ${chatIds.length} + n) * interval '1 millisecond'
        from rows`;
      total += chatIds.length * perChat;
    }
  });
  return total;
}

/** What arrived for a drain, checked: every event once, each chat's in order, signatures. */
export type ArrivalCheck = {
  expected: number;
  arrived: number;
  duplicates: number;
  reordered: number;
  badSignatures: number;
  unsigned: number;
};

export function checkArrivals(arrivals: Arrival[], expected: number): ArrivalCheck {
  const seen = new Set<string>();
  const lastOrd = new Map<string, number>();
  let duplicates = 0;
  let reordered = 0;
  let badSignatures = 0;
  let unsigned = 0;
  for (const [id, , , , sig, chatId, ord] of arrivals) {
    if (seen.has(id)) duplicates++;
    seen.add(id);
    if (sig === 0) badSignatures++;
    if (sig === -1) unsigned++;
    if (chatId !== null && ord !== null) {
      // Each chat's events are numbered 1, 2, 3…: the next arrival must be the next number.
      if (ord !== (lastOrd.get(chatId) ?? 0) + 1) reordered++;
      lastOrd.set(chatId, Math.max(ord, lastOrd.get(chatId) ?? 0));
    }
  }
  return { expected, arrived: seen.size, duplicates, reordered, badSignatures, unsigned };
}

/** Events not delivered, and events without exactly one attempt row (for the drains that record attempts). */
export async function checkDatabase(sql: Sql): Promise<{ notDelivered: number; notOneAttempt: number }> {
  const [row] = await sql<{ not_delivered: number; not_one_attempt: number }[]>`
    select count(*) filter (where e.status <> 'delivered')::int as not_delivered,
      count(*) filter (where coalesce(a.n, 0) <> 1)::int as not_one_attempt
    from events e left join (select event_id, count(*) as n from delivery_attempts group by event_id) a on a.event_id = e.id`;
  return { notDelivered: row.not_delivered, notOneAttempt: row.not_one_attempt };
}

/** The verifying part of the receiver: a Standard Webhooks verifier per path whose secret it was told. */
export function makeVerifier() {
  const verifiers = new Map<string, Webhook>();
  return {
    set(secrets: Record<string, string>) {
      for (const [p, secret] of Object.entries(secrets)) {
        verifiers.set(p, new Webhook(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'), { format: 'raw' }));
      }
    },
    /** 1 verified, 0 bad, -1 no secret known for the path. */
    check(p: string, raw: string, headers: http.IncomingHttpHeaders): number {
      const v = verifiers.get(p);
      if (!v) return -1;
      try {
        v.verify(raw, {
          'webhook-id': String(headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(headers['webhook-signature'] ?? ''),
        });
        return 1;
      } catch {
        return 0;
      }
    },
  };
}

/**
 * How the peer runs. Defaults are the tuning bench:events measured best (see startPeer); the rest
 * are there to measure the alternatives.
 */
export type PeerOptions = {
  /** `concurrentJobs`. */
  concurrency: number;
  /** `localQueue.size`; -1 turns the local queue off (one get_job per job per worker). */
  localQueueSize?: number;
  /** `maxPoolSize` of graphile-worker's pool. */
  poolSize?: number;
  /** Where the task's own queries go: graphile-worker's pool (`helpers.withPgClient`), or a postgres.js pool of this size. */
  taskPool?: 'shared' | number;
  /**
   * Record the attempts of tasks that finish together in one statement (each task still waits for
   * its row's commit before it returns), rather than one statement per task.
   */
  recordBatch?: boolean;
  /** `completeJobBatchDelay` and `failJobBatchDelay`. */
  batchDelay?: number;
  pollInterval?: number;
};

/** A peer's stop, how often it ran two jobs of one chat's queue at the same time, and what graphile-worker reported. */
export type Peer = { stop: () => Promise<void>; readonly overlaps: number; readonly stats: PeerStats };

/**
 * What graphile-worker's events and the task saw during a drain: a failed job is retried later
 * with its queue released, so the chat's next event overtakes it; a worker that found no job waits
 * for the poll or a notification.
 */
export type PeerStats = {
  /** Task runs that threw (each is retried later, out of its chat's order). */
  jobErrors: number;
  /** The first few distinct error messages, of tasks and of fetches. */
  errorSamples: string[];
  /** Fetches of one job by a worker (no local queue) that found none, or that failed. */
  emptyGets: number;
  getErrors: number;
  /** The local queue's batch fetches, the jobs they returned, and the time they took. */
  fetches: number;
  fetchedJobs: number;
  fetchMs: number;
  /** Task runs, and the time they spent reading, POSTing and recording (sums, ms). */
  tasks: number;
  readMs: number;
  postMs: number;
  recordMs: number;
  /** Time from start to stop, ms: with the task time, how busy the workers were. */
  runMs: number;
  concurrency: number;
  /** CPU time of the bench process (graphile-worker, the task, the checks' bookkeeping) from start to stop, ms. */
  cpuMs: number;
};

export function describePeerStats(s: PeerStats): string {
  const per = (ms: number) => (s.tasks ? (ms / s.tasks).toFixed(2) : '-');
  const busy = s.runMs ? (((s.readMs + s.postMs + s.recordMs) / (s.runMs * s.concurrency)) * 100).toFixed(0) : '-';
  const fetches = s.fetches
    ? `, ${s.fetches} batch fetches (${(s.fetchedJobs / s.fetches).toFixed(1)} jobs, ${(s.fetchMs / s.fetches).toFixed(1)} ms each)`
    : '';
  const samples = s.errorSamples.length ? ` [${s.errorSamples.join(' | ')}]` : '';
  return (
    `${s.jobErrors} task errors, ${s.emptyGets} empty gets, ${s.getErrors} get errors${fetches}; ` +
    `task ms read ${per(s.readMs)} / POST ${per(s.postMs)} / record ${per(s.recordMs)}, workers busy ${busy} %, ` +
    `process CPU ${per(s.cpuMs)} ms per task${samples}`
  );
}

/**
 * One job per event, in a named queue per chat (`queueName` = chat id: its jobs run one at a time)
 * with the event's transaction id as job key. Jobs of a queue run in `priority, run_at` order, and
 * jobs added in one call share `run_at` (the transaction's now()), which leaves a chat's order to
 * chance among them; so each job's `runAt` is its event's time (`next_attempt_at`, ascending within
 * a chat), in the past, so it is due at once. Leftovers of an earlier drain are removed first.
 */
export async function enqueuePeerJobs(connectionString: string, sql: Sql): Promise<number> {
  const { makeWorkerUtils } = await import('graphile-worker');
  const utils = await makeWorkerUtils({ connectionString });
  try {
    await utils.migrate();
    await utils.withPgClient((client) => client.query('truncate graphile_worker._private_jobs, graphile_worker._private_job_queues'));
    // Round-robin over the chats, as the events arrived; within a chat, seq order.
    const rows = await sql<{ id: string; chat_id: string; transaction_id: string; at: Date }[]>`
      select id::text, chat_id, transaction_id, next_attempt_at as at from events where status = 'pending' order by next_attempt_at, chat_id, seq`;
    for (let i = 0; i < rows.length; i += 5_000) {
      await utils.addJobs(
        rows.slice(i, i + 5_000).map((r) => ({
          identifier: 'deliver',
          payload: { id: r.id },
          queueName: r.chat_id,
          jobKey: r.transaction_id,
          runAt: r.at,
          maxAttempts: 25,
        })),
      );
    }
    return rows.length;
  } finally {
    await utils.release();
  }
}

const READ_EVENT = `
  select e.chat_id, e.transaction_id, e.body, va.webhook_url, va.signing_secret,
    (select count(*) from delivery_attempts where event_id = e.id)::int as attempts
  from events e join virtual_agents va on va.user_id = e.virtual_agent_id where e.id = $1`;
const RECORD_ATTEMPT = `
  with attempt as (
    insert into delivery_attempts (event_id, attempt_number, started_at, duration_ms, http_status, error)
    values ($1, $2, $3, $4, $5, $6))
  update events set attempt_count = attempt_count + 1, updated_at = now(),
    status = case when $7::boolean then 'delivered'::event_status else status end,
    delivered_at = case when $7::boolean then now() end
  where id = $1`;

// The batched form: any number of attempts, as one JSON text parameter (text, so that postgres.js
// passes the string as it is rather than encoding it again as a JSON string).
const RECORD_ATTEMPTS = `
  with input as (
    select * from jsonb_to_recordset($1::text::jsonb)
      as x(event_id bigint, attempt_number int, started_at timestamptz, duration_ms int, http_status int, error text, ok boolean)),
  attempt as (
    insert into delivery_attempts (event_id, attempt_number, started_at, duration_ms, http_status, error)
    select event_id, attempt_number, started_at, duration_ms, http_status, error from input)
  update events e set attempt_count = e.attempt_count + 1, updated_at = now(),
    status = case when input.ok then 'delivered'::event_status else e.status end,
    delivered_at = case when input.ok then now() end
  from input where e.id = input.event_id`;

type Attempt = {
  event_id: string;
  attempt_number: number;
  started_at: Date;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  ok: boolean;
};

/**
 * Gathers what callers hand in while a write is under way and writes it with the next one; each
 * caller's promise settles with the write that carried its item. One write at a time.
 */
function batcher<T>(write: (items: T[]) => Promise<void>) {
  let waiting: { item: T; done: (err?: unknown) => void }[] = [];
  let writing = false;
  const drain = async () => {
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        await write(batch.map((b) => b.item));
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
    }
    writing = false;
  };
  return (item: T) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!writing) {
        writing = true;
        // The tasks finishing in this turn of the event loop join the first write.
        setImmediate(drain);
      }
    });
}

type EventRow = { chat_id: string; transaction_id: string; body: unknown; webhook_url: string; signing_secret: string; attempts: number };

/**
 * The most connections the peer opens. The docs advise `maxPoolSize` of `concurrentJobs + 2`; past
 * this the pool stays smaller, since the task holds a connection for its read and its share of a
 * batched write, never across its POST (at c64, pools of 12, 24 and 40 drained alike), and the
 * server's 100 connections are shared with the bench's own pools (21) and other users' databases.
 */
export const PEER_POOL_MAX = 26;

/**
 * graphile-worker doing our job, as an application built on it would. Each job (enqueuePeerJobs)
 * reads its event and the VA's address and secret, signs with Standard Webhooks, POSTs over
 * keep-alive node:http and records the attempt row and the event's new state; an answer other than
 * 200 throws, and graphile-worker retries the job. Tuned per its performance page
 * (https://worker.graphile.org/docs/performance) and by measuring on this machine:
 *
 * - The local queue (`localQueue.size` 500, the page's setting). Without it every worker runs its
 *   own get_job, and with a named queue per chat get_job locks every free queue row (2,000 here)
 *   FOR UPDATE SKIP LOCKED in a subquery: a get_job that overlaps another finds every queue
 *   locked, returns nothing although thousands of jobs are due, and that worker sleeps until the
 *   poll. That was the slowness and the silences. With the local queue the pool fetches for its
 *   workers, one fetch at a time, and 0.18's batched fetch keeps one job per named queue (the fix
 *   of graphile/worker#621), so a chat's jobs still run one at a time: the bench counts overlaps
 *   and checks every chat's order at arrival. A size of `concurrentJobs + 1` (the page's starting
 *   point) left the workers waiting on each fetch.
 * - Completions and failures batched (`completeJobBatchDelay`, `failJobBatchDelay` 0), as the page
 *   advises everyone.
 * - One pool: the task's queries go through `helpers.withPgClient`, on graphile-worker's pool.
 *   A second pool as large as the worker's (the old setup) opened 2 × 129 connections at c128
 *   against PostgreSQL's 100: connections were refused, tasks failed, and a failed job is retried
 *   later with its queue released, so its chat's later events overtook it (reordered arrivals, a
 *   duplicate when the POST had gone out). A postgres.js pool of 8 for the task did no better.
 * - The attempts of tasks that finish together are written in one statement, and each task waits
 *   for that commit before it returns (so the job completes only once its row is in). The rollup
 *   trigger on delivery_attempts upserts the VA's row for the minute, so with one statement per
 *   task every task waited for the previous one's commit (pg_stat_activity showed the record
 *   statements waiting on Lock:transactionid): at c24, 22 % of the bare loop's rate against 58 %
 *   batched. The engine writes its attempts in batches for the same reason.
 * - `pollInterval` stays at its default (2 s): the local queue fetches again as soon as its batch
 *   is used up, and waits for the poll only after a fetch that returned no more jobs than workers
 *   were waiting (the end of a drain), and for retries.
 */
export async function startPeer(connectionString: string, options: PeerOptions): Promise<Peer> {
  const {
    concurrency,
    localQueueSize = 500,
    poolSize = Math.min(concurrency + 2, PEER_POOL_MAX),
    taskPool = 'shared',
    recordBatch = true,
    batchDelay = 0,
    pollInterval = 2_000,
  } = options;
  const { run, Logger } = await import('graphile-worker');
  const { default: postgres } = await import('postgres');
  const own = taskPool === 'shared' ? null : postgres(connectionString, { max: taskPool, onnotice: () => {} });
  // Outside a job (the batched record) graphile-worker's pool is reached through the last job's helpers.
  let lastHelpers: import('graphile-worker').JobHelpers | undefined;
  const query = async <T>(name: string, text: string, values: unknown[]): Promise<T[]> => {
    if (own) return (await own.unsafe(text, values as never[], { prepare: true })) as unknown as T[];
    const result = await lastHelpers!.withPgClient((client) => client.query({ name, text, values }));
    return result.rows as T[];
  };
  const recordOne = (a: Attempt) =>
    query('peer_record_attempt', RECORD_ATTEMPT, [a.event_id, a.attempt_number, a.started_at, a.duration_ms, a.http_status, a.error, a.ok]);
  const recordMany = batcher<Attempt>(async (attempts) => {
    await query('peer_record_attempts', RECORD_ATTEMPTS, [JSON.stringify(attempts)]);
  });
  const agent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  const signers = new Map<string, Webhook>();
  // Jobs running now per chat: a named queue should never run two at once.
  const running = new Map<string, number>();
  let overlaps = 0;
  const signer = (secret: string) => {
    let s = signers.get(secret);
    if (!s) {
      s = new Webhook(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'), { format: 'raw' });
      signers.set(secret, s);
    }
    return s;
  };
  const post = (target: URL, headers: Record<string, string>, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          method: 'POST',
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          agent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
          timeout: 5_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });

  const stats: PeerStats = {
    jobErrors: 0,
    errorSamples: [],
    emptyGets: 0,
    getErrors: 0,
    fetches: 0,
    fetchedJobs: 0,
    fetchMs: 0,
    tasks: 0,
    readMs: 0,
    postMs: 0,
    recordMs: 0,
    runMs: 0,
    concurrency,
    cpuMs: 0,
  };
  const sample = (msg: string) => {
    if (stats.errorSamples.length < 4 && !stats.errorSamples.includes(msg)) stats.errorSamples.push(msg);
  };
  const events = new EventEmitter() as WorkerEvents;
  events.on('job:error', ({ error }) => {
    stats.jobErrors++;
    sample(String((error as Error)?.message ?? error).slice(0, 120));
  });
  events.on('worker:getJob:empty', () => stats.emptyGets++);
  events.on('worker:getJob:error', ({ error }) => {
    stats.getErrors++;
    sample(`get: ${String((error as Error)?.message ?? error).slice(0, 120)}`);
  });
  let fetchStarted = 0;
  events.on('localQueue:setMode', ({ newMode }) => {
    if (newMode === 'POLLING') fetchStarted = performance.now();
  });
  events.on('localQueue:getJobs:complete', ({ jobs }) => {
    stats.fetches++;
    stats.fetchedJobs += jobs.length;
    stats.fetchMs += performance.now() - fetchStarted;
  });

  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  const runner = await run({
    events,
    preset: {
      worker: {
        connectionString,
        concurrentJobs: concurrency,
        maxPoolSize: poolSize,
        pollInterval,
        localQueue: { size: localQueueSize },
        completeJobBatchDelay: batchDelay,
        failJobBatchDelay: batchDelay,
        crontabFile: '/dev/null',
      },
    },
    noHandleSignals: true,
    logger: new Logger(() => () => {}),
    taskList: {
      deliver: async (payload, helpers) => {
        const { id } = payload as { id: string };
        lastHelpers = helpers;
        const t0 = performance.now();
        const [e] = await query<EventRow>('peer_read_event', READ_EVENT, [id]);
        const t1 = performance.now();
        const now = (running.get(e.chat_id) ?? 0) + 1;
        running.set(e.chat_id, now);
        if (now > 1) overlaps++;
        const body = JSON.stringify(e.body);
        const postedAt = new Date();
        let status: number | null = null;
        let error: string | null = null;
        try {
          status = await post(
            new URL(e.webhook_url),
            {
              'webhook-id': e.transaction_id,
              'webhook-timestamp': String(Math.floor(postedAt.getTime() / 1000)),
              'webhook-signature': signer(e.signing_secret).sign(e.transaction_id, postedAt, body),
            },
            body,
          );
        } catch (err) {
          error = (err as Error).message;
        }
        running.set(e.chat_id, (running.get(e.chat_id) ?? 1) - 1);
        const t2 = performance.now();
        const ok = status === 200;
        const attempt = {
          event_id: id,
          attempt_number: e.attempts + 1,
          started_at: postedAt,
          duration_ms: Math.round(t2 - t1),
          http_status: status,
          error,
          ok,
        };
        await (recordBatch ? recordMany(attempt) : recordOne(attempt));
        stats.tasks++;
        stats.readMs += t1 - t0;
        stats.postMs += t2 - t1;
        stats.recordMs += performance.now() - t2;
        if (!ok) throw new Error(`webhook answered ${status ?? error}`);
      },
    },
  });
  return {
    async stop() {
      stats.runMs = performance.now() - startedAt;
      const cpu = process.cpuUsage(cpuAtStart);
      stats.cpuMs = (cpu.user + cpu.system) / 1000;
      await runner.stop();
      agent.destroy();
      await own?.end({ timeout: 5 });
    },
    get overlaps() {
      return overlaps;
    },
    stats,
  };
}
