'use client';

import Link from 'next/link';
import { formatDateTime, formatMs } from '@/components/admin/lib/format';
import { TableRegion } from '@/components/admin/table-region';
import type { BotRequest } from '@/contracts/schemas/admin-trace';
import { CopyId } from './copy-id';

/** Element id of a request row, the target of a trace link (`?focus=request:<id>`). */
export const requestAnchor = (id: number) => `request-${id}`;

function Outcome({ r }: { r: BotRequest }) {
  const ok = r.http_status < 400;
  return (
    <span className={`badge ${ok ? 'badge-ok' : 'badge-bad'}`}>
      {r.status_code ?? '—'} · HTTP {r.http_status}
    </span>
  );
}

/**
 * Bot requests as a table: "PATCH by va-… → 4304", the path, the description, the trxid (with a
 * copy button) and the latency. `highlight` marks the row a trace link points at.
 */
export function RequestRows({
  requests,
  label,
  highlight,
  showChat = true,
}: {
  requests: BotRequest[];
  label: string;
  highlight?: string;
  showChat?: boolean;
}) {
  return (
    <TableRegion label={label}>
      <table className="requests">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            <th>Time</th>
            <th>Request</th>
            <th>Answer</th>
            <th>trxid</th>
            <th className="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => {
            const marked = highlight === String(r.id) || highlight === r.trxid;
            return (
              <tr
                key={r.id}
                id={requestAnchor(r.id)}
                className={marked ? 'trace-highlight' : undefined}
                aria-current={marked ? 'true' : undefined}
                data-testid="bot-request"
                data-trxid={r.trxid}
              >
                <td className="small">{formatDateTime(r.at)}</td>
                <td>
                  <strong>{r.method}</strong> by <span className="mono">{r.virtual_agent_login_id}</span> →{' '}
                  <strong>{r.status_code ?? r.http_status}</strong>
                  <div className="mono small truncate" title={r.path}>
                    {r.path}
                  </div>
                  <div className="muted small">
                    {r.operation}
                    {r.idempotency_key && (
                      <>
                        {' '}
                        · Idempotency-Key <span className="mono">{r.idempotency_key}</span>
                      </>
                    )}
                    {showChat && r.chat_id && (
                      <>
                        {' '}
                        ·{' '}
                        <Link href={`/admin/chats/${encodeURIComponent(r.chat_id)}?focus=${encodeURIComponent(`request:${r.id}`)}`}>
                          chat
                        </Link>
                      </>
                    )}
                  </div>
                </td>
                <td>
                  <Outcome r={r} />
                  <div className="small">{r.description}</div>
                </td>
                <td className="small">
                  <CopyId value={r.trxid} label={`trxid of request ${r.id}`} />
                </td>
                <td className="num small">{formatMs(r.latency_ms)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
