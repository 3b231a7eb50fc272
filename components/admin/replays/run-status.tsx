'use client';

import type { ReplayRunView } from '@/contracts/admin/schemas/replay';

const TONES: Record<ReplayRunView['status'], string> = {
  loading: 'badge-info',
  running: 'badge-warn',
  done: 'badge-ok',
  failed: 'badge-bad',
  interrupted: 'badge-bad',
};

/** A run's status, and while it runs its progress as a bar a screen reader reads as a number. */
export function RunProgress({ run }: { run: ReplayRunView }) {
  const pct = run.chats_total ? Math.round((run.chats_done / run.chats_total) * 100) : 0;
  return (
    <span className="replay-progress">
      <span className={`badge ${TONES[run.status]}`} data-testid="run-status">
        {run.status}
      </span>{' '}
      <progress max={run.chats_total || 1} value={run.chats_done} aria-label={`Chats replayed: ${run.chats_done} of ${run.chats_total}`} />{' '}
      <span className="muted" data-testid="run-count">
        {run.chats_done} / {run.chats_total} chats ({pct}%){run.chats_failed ? `, ${run.chats_failed} failed` : ''}
      </span>
    </span>
  );
}

export const isActive = (run: ReplayRunView) => run.status === 'running' || run.status === 'loading';
