'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatDateTime } from '@/components/admin/shared/format';
import { failureOf } from '@/components/shared/errors';
import type { ChatDiff } from '@/lib/replay/diff-chat';
import { checkThresholds, type DiffSummary } from '@/lib/replay/summarize-diff';
import { ChatDiffView } from './chat-diff';
import { isActive, RunProgress } from './run-status';
import { searchToOptions } from './thresholds';

function Stat({ label, value, tone, testId }: { label: string; value: string | number; tone?: string; testId?: string }) {
  return (
    <div className={`stat ${tone ?? ''}`} data-testid={testId}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

const ms = (p: { p50: number; p95: number } | null) => (p ? `${p.p50} / ${p.p95} ms` : '—');

/**
 * One replay run: its progress while it runs (refreshed every second), then its diff against the
 * recording or a baseline run, judged by the thresholds in the address (`fail_on`, `max_changed`,
 * `max_p95`), with every changed chat turn by turn.
 */
export function RunView({ runId, search }: { runId: string; search: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = new URLSearchParams(search);
  const { against, thresholds } = searchToOptions(params);
  const text = params.get('text') === 'exact' ? 'exact' : 'normalised';
  const include = params.get('include') === 'all' ? 'all' : 'changed';
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value === null) next.delete(name);
    else next.set(name, value);
    router.replace(`${pathname}?${next}`);
  };

  const run = tsr.replays.getReplay.useQuery({
    queryKey: keys.replay(runId),
    queryData: { params: { run_id: runId } },
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.body.response) ? 1_000 : false),
  });
  const runs = tsr.replays.listReplays.useQuery({ queryKey: keys.replays });
  const view = run.data?.body.response;
  const ended = view !== undefined && !isActive(view);
  const diffQuery = { against, text, include } as const;
  const diff = tsr.replays.diffReplay.useQuery({
    queryKey: keys.replayDiff(runId, diffQuery),
    queryData: { params: { run_id: runId }, query: diffQuery },
    enabled: ended,
  });
  const result = diff.data?.body.response;
  const summary = result?.summary as DiffSummary | undefined;
  const reasons = summary ? checkThresholds(summary, thresholds) : [];
  const judged =
    (thresholds.failOn?.length ?? 0) > 0 || thresholds.maxChangedChats !== undefined || thresholds.maxP95LatencyMs !== undefined;
  const others = runs.data?.body.response.filter((r) => r.run_id !== runId && r.status === 'done') ?? [];
  const againstLabel = against === 'recording' ? 'Recording' : 'Baseline run';

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Replay {view?.label || runId}</h1>
          <p className="muted">
            <span className="mono">{runId}</span> · <Link href="/admin/replays">All replays</Link>
          </p>
        </div>
      </div>
      {run.error && (
        <p className="form-error" role="alert">
          Could not load the run: {failureOf(run.error)?.description}
        </p>
      )}
      {view && (
        <section className="card" aria-labelledby="progress-title">
          <h2 id="progress-title">Progress</h2>
          <p aria-live="polite">
            <RunProgress run={view} />
          </p>
          <p className="muted small">
            Sandbox VA {view.virtual_agent_id} · settle {view.options.settle_ms} ms · turn timeout {view.options.turn_timeout_ms} ms ·{' '}
            {view.options.concurrency} chats at once · started {formatDateTime(view.created_at)}
            {view.finished_at && ` · ended ${formatDateTime(view.finished_at)}`}
          </p>
          {view.error && (
            <p className="form-error" role="alert" data-testid="run-error">
              {view.error}
            </p>
          )}
          {isActive(view) && <p className="muted">The diff appears when every chat has been replayed.</p>}
        </section>
      )}
      {ended && (
        <section className="card" aria-labelledby="diff-title">
          <h2 id="diff-title">Diff</h2>
          <div className="row replay-controls">
            <label>
              Compare with{' '}
              <select value={against} onChange={(e) => setParam('against', e.target.value === 'recording' ? null : e.target.value)}>
                <option value="recording">the recording</option>
                {others.map((r) => (
                  <option key={r.run_id} value={r.run_id}>
                    run {r.label || r.run_id}
                  </option>
                ))}
                {against !== 'recording' && !others.some((r) => r.run_id === against) && <option value={against}>run {against}</option>}
              </select>
            </label>
            <label>
              Text{' '}
              <select value={text} onChange={(e) => setParam('text', e.target.value === 'normalised' ? null : e.target.value)}>
                <option value="normalised">normalised (whitespace, numbers, ids, dates ignored)</option>
                <option value="exact">exact</option>
              </select>
            </label>
            <label>
              Chats{' '}
              <select value={include} onChange={(e) => setParam('include', e.target.value === 'changed' ? null : e.target.value)}>
                <option value="changed">changed only</option>
                <option value="all">all</option>
              </select>
            </label>
          </div>
          {diff.isPending && <p className="muted">Comparing…</p>}
          {diff.error && (
            <p className="form-error" role="alert">
              Could not compare: {failureOf(diff.error)?.description}
            </p>
          )}
          {summary && result && (
            <>
              {judged && (
                <p className={reasons.length ? 'form-error' : 'form-ok'} role="status" data-testid="verdict">
                  {reasons.length ? (
                    <>
                      <strong>Failed the thresholds:</strong> {reasons.join('; ')}.
                    </>
                  ) : (
                    <strong>Passed the thresholds.</strong>
                  )}
                </p>
              )}
              <div className="stats">
                <Stat
                  label={`chats changed of ${summary.chats_total}`}
                  value={summary.chats_changed}
                  tone={summary.chats_changed ? 'stat-warn' : 'stat-ok'}
                  testId="chats-changed"
                />
                <Stat
                  label="handover decisions changed"
                  value={summary.handover_changed_chats}
                  tone={summary.handover_changed_chats ? 'stat-bad' : 'stat-ok'}
                  testId="handover-changed"
                />
                <Stat label={`turns changed of ${summary.turns_compared}`} value={summary.turns_changed} />
                <Stat label="turns differing only in volatile text" value={summary.turns_text_volatile_only} />
                <Stat label={`reply latency p50 / p95 (${againstLabel.toLowerCase()})`} value={ms(summary.latency_ms.baseline)} />
                <Stat label="reply latency p50 / p95 (this run)" value={ms(summary.latency_ms.candidate)} />
              </div>
              {summary.changed.length > 0 && (
                <p className="small">
                  By kind:{' '}
                  {Object.entries(summary.by_change)
                    .map(([k, n]) => `${k} ${n}`)
                    .join(' · ')}
                </p>
              )}
              {summary.changed.length === 0 && (
                <p className="form-ok">No chat changed: the bot did what {againstLabel.toLowerCase()} did, turn by turn.</p>
              )}
              {(result.chats as unknown as ChatDiff[]).map((c) => (
                <ChatDiffView key={c.seq} chat={c} againstLabel={againstLabel} />
              ))}
            </>
          )}
        </section>
      )}
    </>
  );
}
