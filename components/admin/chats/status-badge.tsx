const TONES: Record<string, string> = {
  queued: 'badge-warn',
  picked: 'badge-info',
  onhold: '',
  closed: '',
  pending: 'badge-warn',
  delivered: 'badge-ok',
  failed: 'badge-bad',
  superseded: '',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${TONES[status] ?? ''}`}>{status}</span>;
}
