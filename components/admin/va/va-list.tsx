'use client';

import Link from 'next/link';
import { type Column, DataTable, LoadState } from '@/components/admin/data-table';
import { Ident } from '@/components/admin/ident';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatAgo, formatPercent } from '@/components/admin/shared/format';
import type { VirtualAgentHealth } from '@/contracts/admin/schemas/delivery';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';

function Health({ health }: { health?: VirtualAgentHealth }) {
  if (!health) return <span className="muted">—</span>;
  const rate = health.success_rate;
  const tone = rate === null ? '' : rate >= 0.99 ? 'badge-ok' : rate >= 0.9 ? 'badge-warn' : 'badge-bad';
  return (
    <div>
      <span className={`badge ${tone}`} title={`${health.delivered} of ${health.attempts} attempts answered 200 in the last 24 h`}>
        {rate === null ? 'no deliveries' : `${formatPercent(rate)} delivered`}
      </span>
      {health.pending > 0 && <span className="badge badge-info"> {health.pending} pending</span>}
      {health.last_error && (
        <div className="small muted">
          Last error {formatAgo(health.last_error_at)}: <span className="mono">{health.last_error}</span>
        </div>
      )}
    </div>
  );
}

function columns(health: Map<number, VirtualAgentHealth>): Column<AdminVirtualAgent>[] {
  return [
    {
      header: 'Name',
      cell: (va) => (
        <>
          <Link href={`/admin/virtual-agents/${va.id}`}>{va.name}</Link>
          <div className="muted small">
            <Ident value={va.login_id} className="id-cell" />
          </div>
        </>
      ),
    },
    { header: 'Team', cell: (va) => va.team_name },
    {
      header: 'Webhook',
      cell: (va) => va.webhook_url,
      cellProps: () => ({ className: 'mono small', style: { maxWidth: 260, overflowWrap: 'anywhere' } }),
    },
    { header: 'Events', cell: (va) => va.subscriptions.join(', '), cellProps: () => ({ className: 'small' }) },
    { header: 'Delivery health (24 h)', cell: (va) => <Health health={health.get(va.id)} /> },
    {
      header: 'Status',
      cell: (va) => (
        <>
          {va.enabled ? <span className="badge badge-ok">enabled</span> : <span className="badge">disabled</span>}
          {va.webhook_failing && (
            <span className="badge badge-bad" title={`Nothing but failed attempts since ${va.webhook_failing.since}`}>
              {' '}
              webhook failing
            </span>
          )}
        </>
      ),
    },
  ];
}

/** The Virtual Agents page: each VA with its webhook, subscriptions and delivery health over 24 h. */
export function VirtualAgentList() {
  const vas = tsr.virtualAgents.listVirtualAgents.useQuery({ queryKey: keys.virtualAgents });
  const health = tsr.deliveries.listVirtualAgentHealth.useQuery({ queryKey: keys.vaHealth, refetchInterval: 15_000 });
  const byId = new Map((health.data?.body.response ?? []).map((h) => [h.virtual_agent_id, h]));

  return (
    <div>
      <div className="page-head">
        <div>
          <h1>Virtual Agents</h1>
          <p className="muted">Bots: each gets chats of its one team and receives their events at its webhook.</p>
        </div>
      </div>
      <div className="row" style={{ marginBottom: '1rem' }}>
        <Link href="/admin/virtual-agents/new" className="btn btn-primary">
          Add Virtual Agent
        </Link>
      </div>
      <LoadState query={vas} />
      <DataTable
        label="Virtual Agents"
        columns={columns(byId)}
        rows={vas.data?.body.response}
        rowKey={(va) => va.id}
        empty="No Virtual Agents yet."
      />
    </div>
  );
}
