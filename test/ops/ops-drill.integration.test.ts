/**
 * The operational drill (test/ops/ops-drill.ts: a private PostgreSQL cluster, two production
 * servers, a noisy and a healthy tenant under load, scraped every second), one case per phase:
 * steady, outage, recovery, burst, drain; before them the start with bad variables, after them what
 * reached the healthy VA and what the servers logged. Each case waits for its phase to be over,
 * writes its part of the markdown report with `t.diagnostic` (test/support/drill-reporter.mjs
 * prints it as the report) and fails on any of its checks that does not hold, naming the check and
 * what was seen. A failed check does not stop the drill: the later phases run and are checked all
 * the same, as an outage that went wrong says nothing about the drain. When the drill itself cannot
 * go on (an error driving it, not a check), the case of that phase fails with the error and the
 * later ones are skipped.
 *
 * Opt-in, as it takes minutes: `npm run drill:ops` (DRILL_OPS=1). DRILL_PHASE_MS (15000) is the
 * length of steady, outage and recovery; DRILL_LOG_DIR=<dir> keeps the servers' and the cluster's
 * logs; DRILL_LOG_LEVEL (warn) is the servers'.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, it, type TestContext } from 'node:test';
import { describeOrSkip } from '../support/describe-or-skip';
import { quantile } from '../support/stats';
import {
  type ApiCall,
  type DrillRun,
  DrillStopped,
  type EventRow,
  opsDrill,
  PHASE_MS,
  PHASES,
  type Phase,
  POOL_SIZE,
  type Scrape,
  type ScrapeKind,
  SHUTDOWN_GRACE_MS,
} from './ops-drill';

/** "Answered within a few seconds" while the database is down: the connect timeout is 2 s. */
const OUTAGE_ANSWER_MS = 5_000;
/** Scrapes started this long after the stop must see the outage (one in flight at the stop may not). */
const OUTAGE_SETTLE_MS = 3_000;
/** After the restart, this long for the instances to be fully back. */
const RECOVERY_MS = 5_000;

const fmtMs = (ms: number) => (Number.isNaN(ms) ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
function countBy<T>(items: T[], key: (t: T) => string): string {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return (
    [...m.entries()]
      .sort()
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') || '-'
  );
}

type Check = { what: string; ok: boolean; detail: string };

/** One case's part of the report and its checks. */
function part() {
  const lines: string[] = [];
  const checks: Check[] = [];
  return {
    say: (l = '') => lines.push(l),
    check: (what: string, ok: boolean, detail = '') => checks.push({ what, ok, detail }),
    /** Hands the part to the reporter, then fails the case on the checks that do not hold. */
    end(t: TestContext, run: DrillRun) {
      if (checks.length) {
        lines.push('| check | result | detail |', '|---|---|---|');
        for (const c of checks) lines.push(`| ${c.what} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail} |`);
      }
      t.diagnostic(lines.join('\n'));
      const failed = checks.filter((c) => !c.ok);
      if (!failed.length) return;
      // The servers' last warnings and errors, for the cause.
      for (const i of [run.i1, run.i2]) {
        const tail = i.out.filter((l) => !l.startsWith('{') || /"level":(40|50|60)/.test(l)).slice(-15);
        if (tail.length) t.diagnostic(`instance ${i.n}, last lines of its output:\n\n\`\`\`\n${tail.join('\n')}\n\`\`\``);
      }
      assert.fail(
        `${failed.length} of ${checks.length} checks failed:\n${failed.map((c) => `- ${c.what}: ${c.detail || '-'}`).join('\n')}`,
      );
    },
  };
}

/**
 * Waits for the drill to get past `here`. False, with the case skipped, when the drill stopped in
 * an earlier phase; stopped in this one, the case fails with the error.
 */
async function reached(t: TestContext, here: Phase | 'end', waiting: Promise<unknown>): Promise<boolean> {
  try {
    await waiting;
    return true;
  } catch (err) {
    if (err instanceof DrillStopped && err.phase !== here) {
      t.skip(err.message);
      return false;
    }
    throw err;
  }
}

/** A phase's calls, scrapes and metrics, as an operator reads them. */
function phaseSection(run: DrillRun, p: Phase, say: (l?: string) => void) {
  const pc = run.calls.filter((c) => c.phase === p);
  const ps = run.scrapes.filter((s) => s.phase === p);
  const start = run.phaseStart[p] ?? run.t0;
  const next = PHASES.slice(PHASES.indexOf(p) + 1).find((q) => run.phaseStart[q]);
  const end = next ? run.phaseStart[next]! : (run.endedAt ?? Date.now());
  say(`## ${p} (${((end - start) / 1000).toFixed(1)} s)`);
  say();
  const answered = pc.filter((c) => c.status > 0);
  const ms = answered.map((c) => c.ms);
  say(`API calls: ${pc.length} (${countBy(pc, (c) => `instance ${c.inst}`)})`);
  say(
    `- by status: ${countBy(pc, (c) => (c.status ? `${c.status}${c.code && c.status >= 400 ? `/${c.code}` : ''}` : `no answer (${c.error})`))}`,
  );
  say(`- latency of answers: p50 ${fmtMs(quantile(ms, 0.5))}, p99 ${fmtMs(quantile(ms, 0.99))}, max ${fmtMs(Math.max(0, ...ms))}`);
  const unavailable = pc.filter((c) => c.status === 503);
  if (unavailable.length) {
    say(
      `- 503s: ${unavailable.length}, codes ${countBy(unavailable, (c) => String(c.code))}, Retry-After ${countBy(unavailable, (c) => String(c.retryAfter))}, max ${fmtMs(Math.max(...unavailable.map((c) => c.ms)))}`,
    );
  }
  say();
  say('| instance | probe | scrapes | answers | p50 | p99 | max |');
  say('|---|---|---|---|---|---|---|');
  for (const n of [1, 2] as const) {
    for (const kind of ['metrics', 'ready', 'live'] as const) {
      const ss = ps.filter((s) => s.inst === n && s.kind === kind);
      if (!ss.length) continue;
      const sms = ss.filter((s) => s.status > 0).map((s) => s.ms);
      const answers = countBy(ss, (s) => (s.status ? `${s.status}${s.readyDetail ? ` (${s.readyDetail})` : ''}` : (s.error ?? 'error')));
      say(
        `| ${n} | ${kind} | ${ss.length} | ${answers} | ${fmtMs(quantile(sms, 0.5))} | ${fmtMs(quantile(sms, 0.99))} | ${fmtMs(Math.max(0, ...sms))} |`,
      );
    }
  }
  say();
  const mv = ps.filter((s) => s.values).map((s) => ({ inst: s.inst, v: s.values! }));
  if (mv.length) {
    const range = (xs: (number | undefined)[]) => {
      const d = xs.filter((x): x is number => x !== undefined);
      return d.length ? `${Math.min(...d)}-${Math.max(...d)}` : 'absent';
    };
    for (const n of [1, 2] as const) {
      const vs = mv.filter((m) => m.inst === n).map((m) => m.v);
      if (!vs.length) continue;
      const last = vs[vs.length - 1];
      say(
        `- instance ${n} metrics: database_up ${range(vs.map((v) => v.databaseUp))}; backlog A ${range(vs.map((v) => v.backlogA))}, B ${range(vs.map((v) => v.backlogB))}; oldest pending A ${range(vs.map((v) => (v.oldestA === undefined ? undefined : Math.round(v.oldestA))))} s, B ${range(vs.map((v) => (v.oldestB === undefined ? undefined : Math.round(v.oldestB * 10) / 10)))} s; in flight ${range(vs.map((v) => v.inFlight))}; circuit of A ${countBy(vs, (v) => v.circuitA ?? 'untracked')}; at the last scrape http ${JSON.stringify(last.http)}, database_unavailable_total ${last.databaseUnavailable ?? 'absent'}`,
      );
    }
    say();
  }
}

const inPhase = (run: DrillRun, p: Phase): ApiCall[] => run.calls.filter((c) => c.phase === p);
const sc = (run: DrillRun, p: Phase, n?: 1 | 2, kind?: ScrapeKind): Scrape[] =>
  run.scrapes.filter((s) => s.phase === p && (!n || s.inst === n) && (!kind || s.kind === kind));

describeOrSkip(
  'operational drill: outage, recovery and SIGTERM under load, two instances on a private PostgreSQL cluster',
  process.env.DRILL_OPS === '1' ? false : 'opt-in, minutes long: DRILL_OPS=1 runs it (npm run drill:ops)',
  () => {
    const drill = opsDrill();
    let run: DrillRun;

    before(async () => {
      run = await drill.start();
    });
    after(async () => {
      await drill.cleanUp();
    });

    it('start: a server with bad variables exits at once, one line per problem, no secret printed', (t) => {
      const { say, check, end } = part();
      const b = run.badStart;
      say(`# drill:ops report, ${new Date(run.t0).toISOString()}`);
      say();
      say(
        `Machine: ${os.cpus().length} CPUs, load average (1/5/15 min) at the start ${run.loadAtStart.join(' / ')}; Node ${process.version}.`,
      );
      say(
        `Two instances (\`node scripts/start.mjs\`), DELIVERY_ENGINE=embedded, DATABASE_CONNECT_TIMEOUT_SECONDS=2, DATABASE_STATEMENT_TIMEOUT_MS=2000, DELIVERY_TIMEOUT_MS=3000, SHUTDOWN_GRACE_MS=${SHUTDOWN_GRACE_MS}; noisy VA ${run.vaA} (endpoint never answers), healthy VA ${run.vaB}; steady, outage and recovery ${PHASE_MS / 1000} s each.`,
      );
      say();
      say('## start with bad variables');
      say();
      say(`ACCESS_TOKEN_TTL_SECONDS=4 and a 9-character METRICS_TOKEN: exit ${b.code} after ${fmtMs(b.ms)}, ${b.problems.length} lines:`);
      for (const l of b.problems) say(`- \`${l}\``);
      say();
      check('bad variables: exit 1', b.code === 1, `exit ${b.code}`);
      check('bad variables: one line per problem (2)', b.problems.length === 2, b.problems.join(' / '));
      check('bad variables: the secret is named, its value not printed', !b.out.some((l) => l.includes(b.secret)));
      end(t, run);
    });

    it('steady: every API call succeeds, every scrape and probe answers 200', async (t) => {
      if (!(await reached(t, 'steady', run.settled('steady')))) return;
      const { say, check, end } = part();
      phaseSection(run, 'steady', say);
      const bad = inPhase(run, 'steady').filter((c) => c.status < 200 || c.status >= 300);
      check(
        'every API call succeeded',
        bad.length === 0,
        countBy(bad, (c) => `${c.status}/${c.code ?? c.error}`),
      );
      const badScrapes = sc(run, 'steady').filter((s) => s.status !== 200);
      check(
        'every scrape and probe answered 200',
        badScrapes.length === 0,
        countBy(badScrapes, (s) => `${s.inst} ${s.kind} ${s.status || s.error}`),
      );
      end(t, run);
    });

    it('outage: requests refused 503/2050 within seconds, metrics answer and say the database is down, ready 503, live 200', async (t) => {
      if (!(await reached(t, 'outage', run.settled('outage')))) return;
      const { say, check, end } = part();
      phaseSection(run, 'outage', say);
      const pc = inPhase(run, 'outage');
      const fiveHundreds = pc.filter((c) => c.status >= 500 && c.status !== 503);
      check(
        'no 5xx other than 503',
        fiveHundreds.length === 0,
        countBy(fiveHundreds, (c) => `${c.status}/${c.code}`),
      );
      const unanswered = pc.filter((c) => c.status === 0);
      check(
        'every API call answered',
        unanswered.length === 0,
        countBy(unanswered, (c) => c.error ?? ''),
      );
      const u = pc.filter((c) => c.status === 503);
      check('API calls refused with 503 while the database is down', u.length > 0, `${u.length}`);
      const badU = u.filter((c) => c.code !== 2050 || c.retryAfter !== '5');
      check(
        'every 503 is status_code 2050 with Retry-After: 5',
        badU.length === 0,
        countBy(badU, (c) => `${c.code}/${c.retryAfter}`),
      );
      const slow = pc.filter((c) => c.status > 0 && c.ms > OUTAGE_ANSWER_MS);
      check(
        `every API answer within ${OUTAGE_ANSWER_MS / 1000} s`,
        slow.length === 0,
        `${slow.length} slower, max ${fmtMs(Math.max(0, ...pc.map((c) => c.ms)))}`,
      );
      for (const n of [1, 2] as const) {
        // Started once the outage settled and answered before the database was started again.
        const settled = (s: Scrape) => s.at >= run.stoppedAt! + OUTAGE_SETTLE_MS && s.at + s.ms < run.phaseStart.recovery!;
        const m = sc(run, 'outage', n, 'metrics');
        const mBad = m.filter((s) => s.status !== 200);
        check(
          `instance ${n}: every metrics scrape answered 200`,
          m.length > 0 && mBad.length === 0,
          countBy(mBad, (s) => String(s.status || s.error)),
        );
        const mSlow = m.filter((s) => s.ms > OUTAGE_ANSWER_MS);
        check(
          `instance ${n}: every metrics scrape within ${OUTAGE_ANSWER_MS / 1000} s`,
          mSlow.length === 0,
          `max ${fmtMs(Math.max(0, ...m.map((s) => s.ms)))}`,
        );
        const up = m.filter((s) => settled(s) && s.values?.databaseUp !== 0);
        check(
          `instance ${n}: vachat_database_up 0 once the database is down`,
          up.length === 0,
          countBy(up, (s) => String(s.values?.databaseUp)),
        );
        const rd = sc(run, 'outage', n, 'ready').filter((s) => settled(s) && s.status !== 503);
        check(
          `instance ${n}: ready 503 once the database is down`,
          rd.length === 0,
          countBy(rd, (s) => String(s.status || s.error)),
        );
        const lv = sc(run, 'outage', n, 'live').filter((s) => s.status !== 200);
        check(
          `instance ${n}: live 200 throughout`,
          lv.length === 0,
          countBy(lv, (s) => String(s.status || s.error)),
        );
      }
      end(t, run);
    });

    it(`recovery: API calls, metrics and readiness are back within ${RECOVERY_MS / 1000} s of the restart`, async (t) => {
      if (!(await reached(t, 'recovery', run.settled('recovery')))) return;
      const { say, check, end } = part();
      phaseSection(run, 'recovery', say);
      const backBy = run.restartedAt! + RECOVERY_MS;
      const pc = inPhase(run, 'recovery');
      const late = pc.filter((c) => c.at >= backBy && (c.status < 200 || c.status >= 300));
      check(
        `API calls succeed again within ${RECOVERY_MS / 1000} s of the restart`,
        late.length === 0,
        countBy(late, (c) => `${c.status}/${c.code ?? c.error}`),
      );
      const bad500 = pc.filter((c) => c.status >= 500 && c.status !== 503);
      check(
        'no 5xx other than 503',
        bad500.length === 0,
        countBy(bad500, (c) => `${c.status}/${c.code}`),
      );
      for (const n of [1, 2] as const) {
        const back = sc(run, 'recovery', n, 'metrics').filter((s) => s.at >= backBy && s.values?.databaseUp !== 1);
        check(`instance ${n}: vachat_database_up 1 again`, back.length === 0, `${back.length} scrapes still not 1`);
        const rd = sc(run, 'recovery', n, 'ready').filter((s) => s.at >= backBy && s.status !== 200);
        check(
          `instance ${n}: ready 200 again`,
          rd.length === 0,
          countBy(rd, (s) => String(s.status || s.error)),
        );
      }
      end(t, run);
    });

    it('burst: both instances serve the burst until SIGTERM', async (t) => {
      if (!(await reached(t, 'burst', run.settled('burst')))) return;
      const { say, check, end } = part();
      phaseSection(run, 'burst', say);
      const bad = sc(run, 'burst', 1).filter((s) => s.status !== 200);
      check(
        'instance 1 before SIGTERM: every scrape and probe answered 200',
        bad.length === 0,
        countBy(bad, (s) => `${s.kind} ${s.status || s.error}`),
      );
      end(t, run);
    });

    it('drain: instance 1 leaves the rotation, answers until it exits 0 within the grace; instance 2 serves on', async (t) => {
      if (!(await reached(t, 'drain', run.settled('drain')))) return;
      const { say, check, end } = part();
      const { i1, i2 } = run;
      phaseSection(run, 'drain', say);
      // Instance 2 over the burst and the drain together.
      const i2calls = [...inPhase(run, 'burst'), ...inPhase(run, 'drain')].filter((c) => c.inst === 2);
      // A pooled connection the stopped database ended can still be handed to a request well after the
      // restart: that request is refused like any other during an outage (README, "Database outage").
      const deadConnection = i2calls.filter((c) => c.status === 503 && c.code === 2050 && c.retryAfter === '5');
      const bad = i2calls.filter((c) => (c.status < 200 || c.status >= 300) && !deadConnection.includes(c));
      check(
        'instance 2 in the burst and the drain: every API call succeeded, or was refused 503/2050 with Retry-After',
        bad.length === 0,
        countBy(bad, (c) => `${c.status}/${c.code ?? c.error}`),
      );
      check(
        `instance 2 in the burst and the drain: at most DATABASE_POOL_SIZE (${POOL_SIZE}) calls refused on connections the stopped database had ended`,
        deadConnection.length <= POOL_SIZE,
        `${deadConnection.length}`,
      );
      const i2s = [...sc(run, 'burst', 2), ...sc(run, 'drain', 2)].filter((s) => s.status !== 200);
      check(
        'instance 2 in the burst and the drain: every scrape and probe answered 200',
        i2s.length === 0,
        countBy(i2s, (s) => `${s.kind} ${s.status || s.error}`),
      );
      const afterSigterm = sc(run, 'drain', 1);
      // Once the drain is over the server closes its listener and the process exits: a probe refused
      // in between is no failure (how long that takes depends on the machine's load), one refused and
      // then answered again would be.
      const lastAnswered = Math.max(0, ...afterSigterm.filter((s) => s.status).map((s) => s.at));
      const untilExit = (s: Scrape, ok: boolean) =>
        ok || (s.error === 'ECONNREFUSED' && s.at > lastAnswered) || (i1.exitedAt !== undefined && s.at + s.ms >= i1.exitedAt - 100);
      const readyAfter = afterSigterm.filter((s) => s.kind === 'ready');
      check(
        'instance 1 after SIGTERM: ready never 200',
        readyAfter.every((s) => s.status !== 200),
        countBy(readyAfter, (s) => String(s.status || s.error)),
      );
      check(
        'instance 1 after SIGTERM: ready answered 503 (not refused) until the exit',
        readyAfter.length > 0 && readyAfter.every((s) => untilExit(s, s.status === 503)),
        countBy(readyAfter, (s) => String(s.status || s.error)),
      );
      const liveAfter = afterSigterm.filter((s) => s.kind === 'live');
      check(
        'instance 1 after SIGTERM: live 200 until the exit',
        liveAfter.length > 0 && liveAfter.every((s) => untilExit(s, s.status === 200)),
        countBy(liveAfter, (s) => String(s.status || s.error)),
      );
      const metricsAfter = afterSigterm.filter((s) => s.kind === 'metrics');
      check(
        'instance 1 after SIGTERM: metrics answered 200 until the exit',
        metricsAfter.length > 0 && metricsAfter.every((s) => untilExit(s, s.status === 200)),
        countBy(metricsAfter, (s) => String(s.status || s.error)),
      );
      check('instance 1 exited with 0', i1.exitCode === 0, `exit ${i1.exitCode}`);
      const took = i1.exitedAt && i1.sigtermAt ? i1.exitedAt - i1.sigtermAt : Number.NaN;
      check(`instance 1 exited within SHUTDOWN_GRACE_MS + 5 s`, took <= SHUTDOWN_GRACE_MS + 5_000, fmtMs(took));
      check('instance 2 still running at the end', !i2.exitedAt, i2.exitedAt ? `exit ${i2.exitCode}` : 'running');
      const api1 = run.calls.filter((c) => c.inst === 1 && c.phase === 'drain');
      say('### instance 1 after SIGTERM');
      say();
      say(
        `Calls in flight at its last scrape before SIGTERM: ${run.inFlightAtSigterm ?? 'unknown'}. Exit code ${i1.exitCode} after ${fmtMs(took)}. Its scrapes from SIGTERM to the exit: ${(
          ['metrics', 'ready', 'live'] as const
        )
          .map(
            (k) =>
              `${k} ${countBy(
                afterSigterm.filter((s) => s.kind === k),
                (s) => (s.status ? String(s.status) : (s.error ?? 'error')),
              )}`,
          )
          .join('; ')}.`,
      );
      say(
        `API calls the load balancer still sent it before a failed ready probe took it out: ${api1.length} (${countBy(api1, (c) => (c.status ? `${c.status}` : `no answer (${c.error})`))}).`,
      );
      const timeline = afterSigterm.map(
        (s) =>
          `+${((s.at - i1.sigtermAt!) / 1000).toFixed(1)}s ${s.kind} ${s.status || s.error}${s.values?.inFlight !== undefined ? ` (in flight ${s.values.inFlight})` : ''}`,
      );
      say(`Timeline: ${timeline.join(', ') || '-'}.`);
      say();
      end(t, run);
    });

    it('end: the healthy VA got every event, in order, once (or again after an unrecorded delivery); no 500, no uncaught exception', async (t) => {
      if (!(await reached(t, 'end', run.finished()))) return;
      const r = await run.finished();
      const { say, check, end } = part();
      const { i1, i2 } = run;
      say('## delivery to the healthy VA (tenant B)');
      say();
      const byTx = new Map(r.bEvents.map((e) => [e.transactionId, e]));
      const arrivals = new Map<string, number[]>();
      const order = new Map<string, number[]>();
      let unknown = 0;
      for (const req of r.received) {
        const tx = String(req.headers['webhook-id']);
        const e = byTx.get(tx);
        if (!e) {
          unknown++;
          continue;
        }
        arrivals.set(tx, [...(arrivals.get(tx) ?? []), req.at]);
        order.set(e.chatId, [...(order.get(e.chatId) ?? []), e.seq]);
      }
      const delivered = r.bEvents.filter((e) => e.status === 'delivered');
      const missing = delivered.filter((e) => !arrivals.has(e.transactionId));
      const dupeIds = [...arrivals.entries()].filter(([, a]) => a.length > 1).map(([tx]) => tx);
      const dupes = dupeIds.map((tx) => arrivals.get(tx) as number[]);
      // Delivery is at least once: an attempt answered 200 while the database was down could not be
      // recorded, its lease ran out, and the event was sent again (the receiver dedupes by webhook-id).
      // Those events are named in the instances' logs; a duplicate of any other event is a fault.
      const unrecorded = new Set<number>();
      for (const inst of [i1, i2]) {
        for (const l of inst.out) {
          if (!l.includes('webhook attempts could not be recorded')) continue;
          try {
            for (const id of (JSON.parse(l) as { eventIds?: number[] }).eventIds ?? []) unrecorded.add(id);
          } catch {
            // not a log line
          }
        }
      }
      const unexplained = dupeIds.filter((tx) => !unrecorded.has(byTx.get(tx)?.id as number));
      const outOfOrder = [...order.values()].filter((seqs) => seqs.some((s, i) => i > 0 && s < seqs[i - 1]));
      const notDelivered = r.bEvents.filter((e) => e.status !== 'delivered');
      say(
        `Events in the table: ${r.bEvents.length} (${countBy(r.bEvents, (e) => e.status)}); requests at its receiver: ${r.received.length}; distinct webhook-ids: ${arrivals.size}; duplicates: ${dupes.length}; unknown ids: ${unknown}; chats out of order: ${outOfOrder.length}.`,
      );
      say(
        `Noisy VA: ${r.aEvents.length} events (${countBy(r.aEvents, (e) => e.status)}), ${r.hangingCalls} calls reached its hanging endpoint.`,
      );
      check(
        'every event of B is delivered (none pending or failed)',
        notDelivered.length === 0,
        countBy(notDelivered, (e) => e.status),
      );
      check("B's receiver got every delivered event", missing.length === 0, `${missing.length} missing`);
      check(
        "B's receiver got each event once, or again only after its delivery could not be recorded during the outage",
        unexplained.length === 0 && unknown === 0,
        `${dupes.length} duplicated (${dupes.length - unexplained.length} of them logged as not recorded), ${unknown} unknown`,
      );
      check("B's receiver got each chat's events in order", outOfOrder.length === 0, `${outOfOrder.length} chats out of order`);
      say();
      say('| events created in | events | delivery latency p50 | p99 | max |');
      say('|---|---|---|---|---|');
      const latencyOf = (e: EventRow) => (arrivals.get(e.transactionId)?.[0] ?? Number.NaN) - e.createdAt.getTime();
      for (const p of PHASES) {
        const start = run.phaseStart[p]!;
        const next = PHASES.slice(PHASES.indexOf(p) + 1).find((q) => run.phaseStart[q]);
        const until = next ? run.phaseStart[next]! : Number.POSITIVE_INFINITY;
        const es = r.bEvents.filter(
          (e) => e.createdAt.getTime() >= start && e.createdAt.getTime() < until && arrivals.has(e.transactionId),
        );
        const l = es.map(latencyOf);
        say(`| ${p} | ${es.length} | ${fmtMs(quantile(l, 0.5))} | ${fmtMs(quantile(l, 0.99))} | ${fmtMs(Math.max(0, ...l))} |`);
      }
      say();

      // Anywhere in the drill.
      const fiveHundreds = run.calls.filter((c) => c.status >= 500 && c.status !== 503);
      check(
        'no 500s in the whole drill',
        fiveHundreds.length === 0,
        countBy(fiveHundreds, (c) => `${c.phase} ${c.status}/${c.code}`),
      );
      const circuit = run.scrapes.filter((s) => s.values?.circuitA === 'open' || s.values?.circuitA === 'half-open').length;
      check("the noisy VA's circuit was seen open", circuit > 0, `${circuit} scrapes`);

      // What the instances logged: why requests got 2050, and uncaught exceptions.
      say("## from the instances' logs");
      say();
      const settledAt = run.restartedAt! + RECOVERY_MS;
      const phaseOf = (at: number) => [...PHASES].reverse().find((p) => (run.phaseStart[p] ?? Number.POSITIVE_INFINITY) <= at) ?? 'start';
      for (const inst of [i1, i2]) {
        const reasons: { at: number; reason: string }[] = [];
        for (const l of inst.out) {
          if (!l.startsWith('{')) continue;
          try {
            const j = JSON.parse(l) as { time?: string; msg?: string; reason?: string; err?: { code?: string } };
            const at = j.time ? Date.parse(j.time) : 0;
            if (j.msg === 'database unavailable') reasons.push({ at, reason: String(j.reason) });
            else if (j.err?.code) reasons.push({ at, reason: `${j.err.code} (${j.msg})` });
          } catch {
            // not a log line
          }
        }
        const uncaught = [...new Set(inst.out.filter((l) => l.includes('uncaughtException')))];
        say(
          `- instance ${inst.n}: database errors logged, by phase: ${countBy(reasons, (x) => `${phaseOf(x.at)} ${x.reason}`)}; uncaught exceptions: ${uncaught.length ? uncaught.join('; ') : 'none'}`,
        );
        check(`instance ${inst.n}: no uncaught exception`, uncaught.length === 0, uncaught.join('; '));
        const settled = reasons.filter((x) => x.at >= settledAt);
        // 57P01 ("terminating connection due to administrator command") and a closed connection are
        // what a pooled connection from before the stop says on its first use, once each.
        const late = settled.filter((x) => !/^(57P01|CONNECTION_CLOSED)\b/.test(x.reason));
        check(
          `instance ${inst.n}: no database error logged from restart + ${RECOVERY_MS / 1000} s on, other than at most ${POOL_SIZE} from connections ended by the stop`,
          late.length === 0 && settled.length - late.length <= POOL_SIZE,
          countBy(settled, (x) => `${phaseOf(x.at)} ${x.reason}`),
        );
      }
      say();
      say(
        `Load average (1/5/15 min) at the end: ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' / ')}.`,
      );
      say();
      end(t, run);
    });
  },
);
