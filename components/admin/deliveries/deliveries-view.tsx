'use client';

import Link from 'next/link';
import { useState } from 'react';
import { type Column, DataTable } from '@/components/admin/data-table';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatAgo, formatMs, formatPercent } from '@/components/admin/shared/format';
import { failureOf } from '@/components/shared/errors';
import { DELIVERY_WINDOWS, type DeliveryStats, type DeliveryWindow } from '@/contracts/admin/schemas/delivery';
import { DeliveriesChart, FailingChart, LatencyChart } from './charts';

const LABELS: Record<DeliveryWindow, string> = { '15m': '15 min', '1h': '1 hour', '24h': '24 hours' };

function Stat({ label, value, tone }: { label: string; value: string | number; tone?: string }) {
  // Long values (three latencies) get a smaller type so the card keeps its height.
  return (
    <div className={`stat ${tone ?? ''}${String(value).length > 12 ? ' stat-compact' : ''}`}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

const FAILING_COLUMNS: Column<DeliveryStats['top_failing'][number]>[] = [
  { header: 'Virtual Agent', cell: (f) => <Link href={`/admin/virtual-agents/${f.virtual_agent_id}`}>{f.name}</Link> },
  { header: 'Unsuccessful / attempts', className: 'num', cell: (f) => `${f.failed_attempts} / ${f.attempts}` },
  {
    header: 'Last error',
    cellProps: () => ({ className: 'small' }),
    cell: (f) => (
      <>
        <span className="mono">{f.last_error ?? '—'}</span>{' '}
        {f.last_error_at && <span className="muted">({formatAgo(f.last_error_at)})</span>}
      </>
    ),
  },
];

/** Webhook deliveries of the account over a window, refreshing every 10 s. */
export function DeliveriesView() {
  const [span, setSpan] = useState<DeliveryWindow>('1h');
  const query = tsr.deliveries.getDeliveryStats.useQuery({
    queryKey: keys.deliveryStats(span),
    queryData: { query: { window: span } },
    refetchInterval: 10_000,
    placeholderData: (prev) => prev,
  });
  const stats = query.data?.body.response;
  const t = stats?.totals;
  const rate = t?.attempts ? t.delivered / t.attempts : null;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Deliveries</h1>
          <p className="muted">Webhook attempts to the Virtual Agents. Refreshes every 10 s.</p>
        </div>
        <fieldset className="segmented">
          <legend className="sr-only">Window</legend>
          {DELIVERY_WINDOWS.map((w) => (
            <label key={w} className={w === span ? 'segmented-on' : ''}>
              <input type="radio" name="window" value={w} checked={w === span} onChange={() => setSpan(w)} />
              {LABELS[w]}
            </label>
          ))}
        </fieldset>
      </div>
      {query.error && <p className="form-error">Could not load: {failureOf(query.error)?.description}</p>}
      {query.isPending && <p className="muted">Loading…</p>}
      {stats && t && (
        <>
          <div className="stats">
            <Stat label="Delivered" value={t.delivered} tone="stat-ok" />
            {/* Retries are the delivery working as designed (the demo's VA is retried until its bot
                runs): counted apart from events lost, and only the latter is red. */}
            <Stat label="Attempts retried" value={t.retried} />
            <Stat label="Events waiting for a retry" value={stats.backlog.retrying} tone={stats.backlog.retrying ? 'stat-warn' : ''} />
            <Stat label="Failed for good" value={t.failed} tone={t.failed ? 'stat-bad' : 'stat-ok'} />
            <Stat label="Superseded (not delivered)" value={t.superseded} />
            <Stat label="Success rate" value={formatPercent(rate)} />
            <Stat
              label="p50 / p95 / p99"
              value={`${formatMs(stats.latency_ms.p50)} / ${formatMs(stats.latency_ms.p95)} / ${formatMs(stats.latency_ms.p99)}`}
            />
            <Stat label="Backlog (pending now)" value={stats.backlog.pending} tone={stats.backlog.pending ? 'stat-warn' : ''} />
          </div>
          {t.failed === 0 && (t.retried > 0 || stats.backlog.retrying > 0) && (
            <p className="form-ok" data-testid="retries-note">
              No event has failed for good in this window. Unsuccessful attempts are retried on the back-off schedule (by default over about
              45 minutes); an event fails only after its last retry. A Virtual Agent whose bot is not running yet (the demo&apos;s, before{' '}
              <code>npm run demo:bot</code>) shows here until it answers.
            </p>
          )}
          <section className="card" aria-labelledby="per-minute-title">
            <h2 id="per-minute-title">Deliveries over the last {LABELS[stats.window]}</h2>
            <DeliveriesChart stats={stats} />
          </section>
          <div className="grid-2 deliveries-grid">
            <section className="card" aria-labelledby="latency-title">
              <h2 id="latency-title">Latency percentiles</h2>
              {t.attempts ? <LatencyChart stats={stats} /> : <p className="muted">No attempts in this window.</p>}
            </section>
            <section className="card" aria-labelledby="backlog-title">
              <h2 id="backlog-title">Backlog</h2>
              <dl className="facts">
                <dt>Pending events</dt>
                <dd>{stats.backlog.pending}</dd>
                <dt>Of which retrying</dt>
                <dd>{stats.backlog.retrying}</dd>
                <dt>Oldest waiting since</dt>
                <dd>{formatAgo(stats.backlog.oldest_pending_since)}</dd>
              </dl>
            </section>
          </div>
          <section className="card" aria-labelledby="failing-title">
            <h2 id="failing-title">Virtual Agents with the most unsuccessful attempts</h2>
            {stats.top_failing.length === 0 ? (
              <p className="muted">No failed attempts in this window.</p>
            ) : (
              <>
                <FailingChart stats={stats} />
                <DataTable
                  label="Virtual Agents with unsuccessful attempts, table"
                  regionClassName="table-fits"
                  rows={stats.top_failing}
                  rowKey={(f) => f.virtual_agent_id}
                  columns={FAILING_COLUMNS}
                />
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
