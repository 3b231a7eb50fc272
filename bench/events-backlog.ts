/**
 * The backlog cases of bench:events (see bench/events.ts): many chats' events waiting for one VA or
 * for several at once, the same job done by graphile-worker (the peer), and the checks of what
 * arrived. Used by bench/events.ts only.
 */

import http from 'node:http';
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

export type PeerOptions = { concurrency: number };

/**
 * graphile-worker doing our job, as an application built on it would, tuned per its performance
 * page (https://worker.graphile.org/docs/performance): `concurrentJobs`, a pool one larger,
 * batched completions (`completeJobBatchDelay: 0`, `failJobBatchDelay: 0`), LISTEN/NOTIFY for new
 * jobs (its default) with the poll only for retries. Its local queue, the page's other batching
 * option, is off: with it, jobs of one named queue run side by side, and a chat's events must not.
 *
 * One job per event, in a named queue per chat (`queueName` = chat id, which runs a queue's jobs
 * one at a time in id order) with the event's transaction id as job key. The task reads the event
 * and its VA's address and secret, signs with Standard Webhooks, POSTs over keep-alive node:http,
 * and records the attempt row and the event's new state in one statement; an answer other than
 * 200 throws, and graphile-worker retries the job.
 */
export async function enqueuePeerJobs(connectionString: string, sql: Sql): Promise<number> {
  const { makeWorkerUtils } = await import('graphile-worker');
  const utils = await makeWorkerUtils({ connectionString });
  try {
    await utils.migrate();
    // Round-robin over the chats, as the events arrived; within a chat, seq order (job ids ascend).
    const rows = await sql<{ id: string; chat_id: string; transaction_id: string }[]>`
      select id::text, chat_id, transaction_id from events where status = 'pending' order by next_attempt_at, chat_id, seq`;
    for (let i = 0; i < rows.length; i += 5_000) {
      await utils.addJobs(
        rows.slice(i, i + 5_000).map((r) => ({
          identifier: 'deliver',
          payload: { id: r.id },
          queueName: r.chat_id,
          jobKey: r.transaction_id,
          maxAttempts: 25,
        })),
      );
    }
    return rows.length;
  } finally {
    await utils.release();
  }
}

/** A peer's stop, and how often it ran two jobs of one chat's queue at the same time. */
export type Peer = { stop: () => Promise<void>; readonly overlaps: number };

export async function startPeer(connectionString: string, { concurrency }: PeerOptions): Promise<Peer> {
  const { run, Logger } = await import('graphile-worker');
  const { default: postgres } = await import('postgres');
  // The task's own queries get a pool as large as the worker's, so they never wait for a connection.
  const sql = postgres(connectionString, { max: concurrency + 1, onnotice: () => {} });
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
  const runner = await run({
    preset: {
      worker: {
        connectionString,
        concurrentJobs: concurrency,
        maxPoolSize: concurrency + 1,
        pollInterval: 2_000,
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
        crontabFile: '/dev/null',
      },
    },
    noHandleSignals: true,
    logger: new Logger(() => () => {}),
    taskList: {
      deliver: async (payload) => {
        const { id } = payload as { id: string };
        const [e] = await sql<
          { chat_id: string; transaction_id: string; body: unknown; webhook_url: string; signing_secret: string; attempts: number }[]
        >`
          select e.chat_id, e.transaction_id, e.body, va.webhook_url, va.signing_secret,
            (select count(*) from delivery_attempts where event_id = e.id)::int as attempts
          from events e join virtual_agents va on va.user_id = e.virtual_agent_id where e.id = ${id}`;
        const now = (running.get(e.chat_id) ?? 0) + 1;
        running.set(e.chat_id, now);
        if (now > 1) overlaps++;
        const body = JSON.stringify(e.body);
        const startedAt = new Date();
        const t0 = performance.now();
        let status: number | null = null;
        let error: string | null = null;
        try {
          status = await post(
            new URL(e.webhook_url),
            {
              'webhook-id': e.transaction_id,
              'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
              'webhook-signature': signer(e.signing_secret).sign(e.transaction_id, startedAt, body),
            },
            body,
          );
        } catch (err) {
          error = (err as Error).message;
        }
        running.set(e.chat_id, (running.get(e.chat_id) ?? 1) - 1);
        const ok = status === 200;
        await sql`
          with attempt as (
            insert into delivery_attempts (event_id, attempt_number, started_at, duration_ms, http_status, error)
            values (${id}, ${e.attempts + 1}, ${startedAt}, ${Math.round(performance.now() - t0)}, ${status}, ${error}))
          update events set attempt_count = attempt_count + 1, updated_at = now(),
            status = case when ${ok} then 'delivered'::event_status else status end,
            delivered_at = case when ${ok} then now() end
          where id = ${id}`;
        if (!ok) throw new Error(`webhook answered ${status ?? error}`);
      },
    },
  });
  return {
    async stop() {
      await runner.stop();
      agent.destroy();
      await sql.end({ timeout: 5 });
    },
    get overlaps() {
      return overlaps;
    },
  };
}
