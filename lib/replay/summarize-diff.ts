import type { ChangeKind, ChatDiff } from './diff-chat';

export type DiffSummary = {
  chats_total: number;
  chats_changed: number;
  /** Chats in which some turn's handover decision differs (a transfer made or dropped). */
  handover_changed_chats: number;
  turns_compared: number;
  turns_changed: number;
  /** Turns whose text differs exactly but not once normalised (whitespace, numbers, ids, dates). */
  turns_text_volatile_only: number;
  /** Chats changed, by kind of change. */
  by_change: Partial<Record<ChangeKind, number>>;
  latency_ms: { baseline: Percentiles | null; candidate: Percentiles | null };
  /** Every changed chat: its id, position in the recording, first changed turn and what changed. */
  changed: { id: string; seq: number; first_changed_turn: number | null; changes: ChangeKind[]; error?: string }[];
};
type Percentiles = { p50: number; p95: number; max: number };

export function summarizeDiff(diffs: ChatDiff[]): DiffSummary {
  const byChange: Partial<Record<ChangeKind, number>> = {};
  for (const d of diffs) for (const kind of d.changes) byChange[kind] = (byChange[kind] ?? 0) + 1;
  const turns = diffs.flatMap((d) => d.turns.filter((t) => t.compared));
  return {
    chats_total: diffs.length,
    chats_changed: diffs.filter((d) => d.changed).length,
    handover_changed_chats: diffs.filter((d) => d.handover_changed).length,
    turns_compared: turns.length,
    turns_changed: turns.filter((t) => t.changed).length,
    turns_text_volatile_only: turns.filter((t) => !t.text_exact_equal && t.text_normalised_equal).length,
    by_change: byChange,
    latency_ms: {
      baseline: percentiles(turns.map((t) => t.latency_ms.baseline)),
      candidate: percentiles(turns.map((t) => t.latency_ms.candidate)),
    },
    changed: diffs
      .filter((d) => d.changed)
      .map((d) => ({
        id: d.id,
        seq: d.seq,
        first_changed_turn: d.first_changed_turn,
        changes: d.changes,
        ...(d.error && { error: d.error }),
      })),
  };
}

function percentiles(values: (number | null)[]): Percentiles | null {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

/**
 * CI thresholds: `failOn` lists the kinds of change that fail the run at all (`any` for every
 * kind); `maxChangedChats` fails when more chats changed; `maxP95LatencyMs` when the candidate's
 * 95th percentile reply latency is above it. Returns the reasons it fails (empty: it passes).
 */
export type Thresholds = { failOn?: (ChangeKind | 'any')[]; maxChangedChats?: number; maxP95LatencyMs?: number };

export function checkThresholds(summary: DiffSummary, t: Thresholds): string[] {
  const reasons: string[] = [];
  for (const kind of t.failOn ?? []) {
    const n = kind === 'any' ? summary.chats_changed : (summary.by_change[kind] ?? 0);
    if (n > 0) reasons.push(`${n} chat(s) with a changed ${kind === 'any' ? 'turn' : kind}`);
  }
  if (t.maxChangedChats !== undefined && summary.chats_changed > t.maxChangedChats) {
    reasons.push(`${summary.chats_changed} chats changed, more than ${t.maxChangedChats}`);
  }
  const p95 = summary.latency_ms.candidate?.p95;
  if (t.maxP95LatencyMs !== undefined && p95 !== undefined && p95 > t.maxP95LatencyMs) {
    reasons.push(`reply latency p95 ${p95} ms, above ${t.maxP95LatencyMs} ms`);
  }
  return reasons;
}
