'use client';

import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMs, formatTime } from '@/components/admin/shared/format';
import type { DeliveryStats } from '@/contracts/admin/schemas/delivery';

/**
 * Series colours, each at least 3:1 against the white chart (WCAG 1.4.11); the legend, the
 * chart's text alternative and the figures above the charts carry the same numbers in words.
 */
const COLORS = { delivered: '#176f30', retried: '#9a6700', failed: '#b42318', p50: '#4a78c8', p95: '#1f5fbf', p99: '#0f2a4f' };

/** Attempts per bucket, stacked: delivered, retried and failed. */
export function DeliveriesChart({ stats }: { stats: DeliveryStats }) {
  const per = stats.bucket_seconds === 60 ? 'minute' : `${stats.bucket_seconds / 60} minutes`;
  const data = stats.buckets.map((b) => ({ ...b, label: formatTime(b.minute) }));
  return (
    <figure className="chart" aria-label={`Deliveries per ${per}`}>
      <div
        role="img"
        aria-label={`Deliveries per ${per}: ${stats.totals.delivered} delivered, ${stats.totals.retried} retried, ${stats.totals.failed} failed`}
      >
        <ResponsiveContainer width="100%" height={260}>
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend itemSorter={null} />
            <Bar dataKey="delivered" name="Delivered" stackId="a" fill={COLORS.delivered} isAnimationActive={false} />
            <Bar dataKey="retried" name="Retried" stackId="a" fill={COLORS.retried} isAnimationActive={false} />
            <Bar dataKey="failed" name="Failed" stackId="a" fill={COLORS.failed} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted small">Attempts per {per}, by outcome</figcaption>
    </figure>
  );
}

/** p50, p95 and p99 of attempt latency. */
export function LatencyChart({ stats }: { stats: DeliveryStats }) {
  const { p50, p95, p99 } = stats.latency_ms;
  const data = [
    { name: 'p50', ms: p50 ?? 0, fill: COLORS.p50 },
    { name: 'p95', ms: p95 ?? 0, fill: COLORS.p95 },
    { name: 'p99', ms: p99 ?? 0, fill: COLORS.p99 },
  ];
  return (
    <figure className="chart" aria-label="Latency percentiles">
      <div role="img" aria-label={`Latency: p50 ${formatMs(p50)}, p95 ${formatMs(p95)}, p99 ${formatMs(p99)}`}>
        <ResponsiveContainer width="100%" height={200}>
          <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" tick={{ fontSize: 11 }} unit=" ms" />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 12 }} width={40} />
            <Tooltip formatter={(v) => formatMs(Number(v))} />
            <Bar dataKey="ms" name="Latency" isAnimationActive={false}>
              {data.map((d) => (
                <Cell key={d.name} fill={d.fill} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted small">Latency of the attempts in the window</figcaption>
    </figure>
  );
}

/**
 * The VAs with the most unsuccessful attempts. Their bars are red only when an event has failed
 * for good in the window; attempts that are retried are drawn in the retry colour.
 */
export function FailingChart({ stats }: { stats: DeliveryStats }) {
  const lost = stats.totals.failed > 0;
  const data = stats.top_failing.map((f) => ({ name: f.name, failed: f.failed_attempts, ok: f.attempts - f.failed_attempts }));
  return (
    <figure className="chart" aria-label="Virtual Agents with the most unsuccessful attempts">
      <div role="img" aria-label={stats.top_failing.map((f) => `${f.name}: ${f.failed_attempts} unsuccessful attempts`).join('; ')}>
        <ResponsiveContainer width="100%" height={Math.max(120, data.length * 44 + 40)}>
          <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 12 }} width={160} />
            <Tooltip />
            <Legend itemSorter={null} />
            <Bar
              dataKey="failed"
              name={lost ? 'Unsuccessful attempts' : 'Unsuccessful attempts (retried)'}
              stackId="a"
              fill={lost ? COLORS.failed : COLORS.retried}
              isAnimationActive={false}
            />
            <Bar dataKey="ok" name="Delivered" stackId="a" fill={COLORS.delivered} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
