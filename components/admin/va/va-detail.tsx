'use client';

import Link from 'next/link';
import { SecretReveal } from '@/components/admin/secret-reveal';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatAgo, formatDateTime, formatPercent } from '@/components/admin/shared/format';
import { forget, useRevealed } from '@/components/admin/shared/revealed-secrets';
import { VaRequestLog } from '@/components/admin/traces/va-request-log';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';
import { RecoveryCard } from './recovery-card';
import { RepliesCard } from './replies-card';
import { VaActions } from './va-actions';
import { VaForm } from './va-form';

function HealthCard({ id }: { id: number }) {
  const health = tsr.deliveries.listVirtualAgentHealth.useQuery({ queryKey: keys.vaHealth, refetchInterval: 15_000 });
  const h = health.data?.body.response.find((x) => x.virtual_agent_id === id);
  return (
    <section className="card" aria-labelledby="va-health-title">
      <h2 id="va-health-title">Delivery health, last 24 h</h2>
      {!h ? (
        <p className="muted">{health.isPending ? 'Loading…' : 'No data.'}</p>
      ) : (
        <dl className="facts">
          <dt>Success rate</dt>
          <dd>{h.attempts ? `${formatPercent(h.success_rate)} (${h.delivered} of ${h.attempts} attempts)` : 'No deliveries yet'}</dd>
          <dt>Failed events</dt>
          <dd>{h.failed_events}</dd>
          <dt>Pending now</dt>
          <dd>{h.pending}</dd>
          <dt>Last attempt</dt>
          <dd>{formatAgo(h.last_attempt_at)}</dd>
          <dt>Last error</dt>
          <dd>{h.last_error ? `${h.last_error} (${formatAgo(h.last_error_at)})` : 'None'}</dd>
        </dl>
      )}
    </section>
  );
}

/** How the VA receives its events and, for pulled events, where its bot stands. */
function DeliveryCard({ va }: { va: AdminVirtualAgent }) {
  const c = va.event_cursor;
  const pull = va.delivery_mode === 'pull';
  return (
    <section className="card" aria-labelledby="va-delivery-title">
      <h2 id="va-delivery-title">Event delivery</h2>
      <dl className="facts">
        <dt>Delivery mode</dt>
        <dd>
          {pull ? (
            <>
              <strong>Pull</strong>: the bot reads <code>GET /api/v1/events</code> or the event stream; nothing is POSTed.
            </>
          ) : (
            <>
              <strong>Webhook</strong>: POSTed to <code>{va.webhook_url ?? 'no URL'}</code>.
            </>
          )}
        </dd>
        <dt>Last read</dt>
        <dd>{c.last_read_at ? `${formatAgo(c.last_read_at)} (${formatDateTime(c.last_read_at)})` : 'Never'}</dd>
        <dt>Open streams</dt>
        <dd>{c.open_streams}</dd>
        {pull && (
          <>
            <dt>Last acknowledged</dt>
            <dd>{c.acknowledged_at ? `${formatAgo(c.acknowledged_at)} (${formatDateTime(c.acknowledged_at)})` : 'Nothing yet'}</dd>
            <dt>Acknowledged cursor</dt>
            <dd>{c.acknowledged_cursor ? <code className="break">{c.acknowledged_cursor}</code> : 'None'}</dd>
          </>
        )}
      </dl>
      {pull && (
        <p className="hint">
          {va.fallback_team_id
            ? 'If the bot neither reads nor keeps a stream open for the idle time while events wait, its chats go to the fallback team.'
            : 'No fallback team: if the bot stops reading, its chats wait for it.'}
        </p>
      )}
    </section>
  );
}

/** One Virtual Agent: credentials just issued (once), actions, health, its request log and settings. */
export function VaDetail({ id, trxid }: { id: number; trxid?: string }) {
  const query = tsr.virtualAgents.getVirtualAgent.useQuery({ queryKey: keys.virtualAgent(id), queryData: { params: { id } } });
  const revealed = useRevealed(id);
  const va = query.data?.body.response;

  if (query.isPending) return <p className="muted">Loading…</p>;
  if (!va) return <p className="form-error">Could not load this Virtual Agent: {failureOf(query.error)?.description}</p>;
  return (
    <>
      <p className="small">
        <Link href="/admin/virtual-agents">← Virtual Agents</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>
            {va.name} {va.enabled ? <span className="badge badge-ok">enabled</span> : <span className="badge">disabled</span>}
          </h1>
          <p className="muted">
            Login ID <code>{va.login_id}</code> · team {va.team_name} · registered {formatDateTime(va.created_at)}
          </p>
        </div>
      </div>
      {revealed && (revealed.apiKey || revealed.signingSecret) && (
        <SecretReveal
          title={revealed.apiKey && revealed.signingSecret ? 'Virtual Agent registered: its credentials' : 'New credential issued'}
          apiKey={revealed.apiKey}
          signingSecret={revealed.signingSecret}
          onDone={() => {
            forget(id);
            focusId('va-actions-title');
          }}
        />
      )}
      <VaActions va={va} />
      <DeliveryCard va={va} />
      <HealthCard id={va.id} />
      <RecoveryCard va={va} />
      <RepliesCard va={va} />
      <VaRequestLog key={trxid ?? ''} virtualAgentId={va.id} trxid={trxid} />
      <h2>Settings</h2>
      <VaForm key={va.id} va={va} />
    </>
  );
}
