'use client';

import Link from 'next/link';
import { type Column, DataTable } from '@/components/admin/data-table';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatDateTime } from '@/components/admin/shared/format';
import { failureOf } from '@/components/shared/errors';
import type { ReplayRunView } from '@/contracts/admin/schemas/replay';
import { isActive, RunProgress } from './run-status';

const COLUMNS: Column<ReplayRunView>[] = [
  {
    header: 'Run',
    cell: (r) => (
      <>
        <Link href={`/admin/replays/${r.run_id}`}>{r.label || r.run_id}</Link>
        <div className="muted small mono">{r.run_id}</div>
      </>
    ),
  },
  { header: 'Progress', cell: (r) => <RunProgress run={r} /> },
  { header: 'Sandbox VA', className: 'num', cell: (r) => r.virtual_agent_id },
  { header: 'Started', cell: (r) => formatDateTime(r.created_at) },
  { header: 'Finished', cell: (r) => (r.error ? <span className="small">{r.error}</span> : formatDateTime(r.finished_at)) },
];

/** The account's replay runs, newest first; refreshed every 2 s while one of them runs. */
export function ReplaysView() {
  const runs = tsr.replays.listReplays.useQuery({
    queryKey: keys.replays,
    refetchInterval: (q) => (q.state.data?.body.response.some(isActive) ? 2_000 : false),
  });
  const list = runs.data?.body.response;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Replays</h1>
          <p className="muted">
            Recorded conversations sent again to a bot under test in the replay sandbox, and what it did differently. No customer, person or
            live metric sees them. Guide: <a href="/docs/guide/replay">Replay and diff</a>.
          </p>
        </div>
      </div>
      <div className="row" style={{ marginBottom: '1rem' }}>
        <Link className="btn btn-primary" href="/admin/replays/new">
          Start a replay
        </Link>
        <Link className="btn" href="/admin/replays/export">
          Export recordings
        </Link>
      </div>
      {runs.error && (
        <p className="form-error" role="alert">
          Could not load the runs: {failureOf(runs.error)?.description}
        </p>
      )}
      {runs.isPending && <p className="muted">Loading…</p>}
      <DataTable
        label="Replay runs"
        rows={list}
        rowKey={(r) => r.run_id}
        columns={COLUMNS}
        empty={
          <>
            No replay yet. <Link href="/admin/replays/new">Start one</Link> with a recording (export one from your chats, or write it by
            hand).
          </>
        }
      />
    </>
  );
}
