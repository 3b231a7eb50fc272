'use client';

import Link from 'next/link';
import { type Column, DataTable } from '@/components/admin/data-table';
import { formatDateTime, formatMs } from '@/components/admin/shared/format';
import type { BotRequest } from '@/contracts/admin/schemas/trace';
import { CopyId } from './copy-id';

/** Element id of a request row, the target of a trace link (`?focus=request:<trxid>`). */
const requestAnchor = (trxid: string) => `request-${trxid}`;

function Outcome({ r }: { r: BotRequest }) {
  const ok = r.http_status < 400;
  return (
    <span className={`badge ${ok ? 'badge-ok' : 'badge-bad'}`}>
      {r.status_code ?? '—'} · HTTP {r.http_status}
    </span>
  );
}

/** The columns; `showChat` links each request to its chat's page. */
function columns(showChat: boolean): Column<BotRequest>[] {
  return [
    { header: 'Time', cell: (r) => formatDateTime(r.at), cellProps: () => ({ className: 'small' }) },
    {
      header: 'Request',
      cell: (r) => (
        <>
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
                · <Link href={`/admin/chats/${encodeURIComponent(r.chat_id)}?focus=${encodeURIComponent(`request:${r.trxid}`)}`}>chat</Link>
              </>
            )}
          </div>
        </>
      ),
    },
    {
      header: 'Answer',
      cell: (r) => (
        <>
          <Outcome r={r} />
          <div className="small">{r.description}</div>
        </>
      ),
    },
    {
      header: 'trxid',
      cell: (r) => <CopyId value={r.trxid} label={`trxid of the ${r.method} at ${formatDateTime(r.at)}`} />,
      cellProps: () => ({ className: 'small' }),
    },
    { header: 'Latency', className: 'num', cell: (r) => formatMs(r.latency_ms), cellProps: () => ({ className: 'small' }) },
  ];
}
const WITH_CHAT = columns(true);
const WITHOUT_CHAT = columns(false);

/**
 * Bot requests as a table: "PATCH by va-… → 4304", the path, the description, the trxid (with a
 * copy button) and the latency. `highlight` marks the row a trace link points at; `empty` is shown
 * in place of the table when there are none.
 */
export function RequestRows({
  requests,
  label,
  highlight,
  empty,
  showChat = true,
}: {
  requests: BotRequest[] | undefined;
  label: string;
  highlight?: string;
  empty: string;
  showChat?: boolean;
}) {
  return (
    <DataTable
      label={label}
      className="requests"
      columns={showChat ? WITH_CHAT : WITHOUT_CHAT}
      rows={requests}
      empty={empty}
      rowKey={(r) => r.trxid}
      rowProps={(r) => {
        const marked = highlight === r.trxid;
        return {
          id: requestAnchor(r.trxid),
          className: marked ? 'trace-highlight' : undefined,
          'aria-current': marked ? 'true' : undefined,
          'data-testid': 'bot-request',
          'data-trxid': r.trxid,
        };
      }}
    />
  );
}
