'use client';

import Link from 'next/link';
import { Ident } from '@/components/admin/ident';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { formatAgo, formatPercent } from '@/components/admin/lib/format';
import { TableRegion } from '@/components/admin/table-region';
import type { VirtualAgentHealth } from '@/contracts/schemas/admin-delivery';

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

/** The Virtual Agents tab: each VA with its webhook, subscriptions and delivery health over 24 h. */
export function VirtualAgentsTab() {
  const vas = tsr.virtualAgents.listVirtualAgents.useQuery({ queryKey: keys.virtualAgents });
  const health = tsr.deliveries.listVirtualAgentHealth.useQuery({ queryKey: keys.vaHealth, refetchInterval: 15_000 });
  const byId = new Map((health.data?.body.response ?? []).map((h) => [h.virtual_agent_id, h]));
  const list = vas.data?.body.response ?? [];

  return (
    <div>
      <div className="row" style={{ marginBottom: '1rem' }}>
        <Link href="/admin/users/virtual-agents/new" className="btn btn-primary">
          Add Virtual Agent
        </Link>
        <span className="muted small">A Virtual Agent (bot) gets chats of its one team and receives their events at its webhook.</span>
      </div>
      {vas.isPending && <p className="muted">Loading…</p>}
      {vas.error && <p className="form-error">Could not load: {failureOf(vas.error)?.description}</p>}
      {vas.data && list.length === 0 && <p className="muted">No Virtual Agents yet.</p>}
      {list.length > 0 && (
        <TableRegion label="Virtual Agents">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Team</th>
                <th>Webhook</th>
                <th>Events</th>
                <th>Delivery health (24 h)</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((va) => (
                <tr key={va.id}>
                  <td>
                    <Link href={`/admin/users/virtual-agents/${va.id}`}>{va.name}</Link>
                    <div className="muted small">
                      <Ident value={va.login_id} className="id-cell" />
                    </div>
                  </td>
                  <td>{va.team_name}</td>
                  <td className="mono small" style={{ maxWidth: 260, overflowWrap: 'anywhere' }}>
                    {va.webhook_url}
                  </td>
                  <td className="small">{va.subscriptions.join(', ')}</td>
                  <td>
                    <Health health={byId.get(va.id)} />
                  </td>
                  <td>
                    {va.enabled ? <span className="badge badge-ok">enabled</span> : <span className="badge">disabled</span>}
                    {va.webhook_failing && (
                      <span className="badge badge-bad" title={`Nothing but failed attempts since ${va.webhook_failing.since}`}>
                        {' '}
                        webhook failing
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </div>
  );
}
