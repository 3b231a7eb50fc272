import { CHANGE_KINDS, type ChangeKind } from '@/lib/replay/diff-chat';
import type { Thresholds } from '@/lib/replay/summarize-diff';

/** What the run's page compares with and judges by, kept in its address so it can be shared and reloaded. */
export type PageOptions = { against: string; failOn: string[]; maxChanged: string; maxP95: string };

export function thresholdsToSearch({ against, failOn, maxChanged, maxP95 }: PageOptions): string {
  const q = new URLSearchParams();
  if (against && against !== 'recording') q.set('against', against);
  if (failOn.length) q.set('fail_on', failOn.join(','));
  if (maxChanged) q.set('max_changed', maxChanged);
  if (maxP95) q.set('max_p95', maxP95);
  return q.toString();
}

export function searchToOptions(q: URLSearchParams): { against: string; thresholds: Thresholds } {
  const failOn = (q.get('fail_on') ?? '')
    .split(',')
    .filter((k): k is ChangeKind | 'any' => k === 'any' || (CHANGE_KINDS as readonly string[]).includes(k));
  const n = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
  return {
    against: q.get('against') || 'recording',
    thresholds: { failOn, maxChangedChats: n(q.get('max_changed')), maxP95LatencyMs: n(q.get('max_p95')) },
  };
}
