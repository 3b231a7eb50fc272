'use client';

import { useState } from 'react';
import { tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { formatDateTime } from '@/components/admin/lib/format';
import type { AuditQuery } from '@/contracts/schemas/admin-audit';

/** The account's audit log: newest first, filtered by administrator, action or target id. */
export function AuditView() {
  const [filters, setFilters] = useState<AuditQuery>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const query: AuditQuery = { ...filters, page_size: 50, cursor: cursors.at(-1) };
  const result = tsr.audit.listAuditEntries.useQuery({ queryKey: ['audit', query], queryData: { query } });
  const page = result.data?.body.response;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Every change made through the admin API: who, when, what and from where. Text that was sent is never kept.
          </p>
        </div>
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const pick = (k: string) => String(data.get(k) ?? '').trim() || undefined;
          setCursors([]);
          setFilters({ admin_email: pick('admin_email'), action: pick('action'), target_id: pick('target_id') });
        }}
      >
        <label>
          Administrator <input name="admin_email" type="email" placeholder="email" />
        </label>
        <label>
          Action <input name="action" placeholder="e.g. virtual-agents" />
        </label>
        <label>
          Target id <input name="target_id" />
        </label>
        <button type="submit" className="btn">
          Filter
        </button>
      </form>
      {result.error && <p className="form-error">Could not load: {failureOf(result.error)?.description}</p>}
      {result.isPending && <p className="muted">Loading…</p>}
      {page && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Administrator</th>
                <th>Action</th>
                <th>Target</th>
                <th>Fields</th>
                <th>Status</th>
                <th>From</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at)}</td>
                  <td>{e.admin_email}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.target_id ?? '—'}</td>
                  <td>{e.fields.map((f) => (f in e.values ? `${f}=${String(e.values[f])}` : f)).join(', ') || '—'}</td>
                  <td>{e.http_status}</td>
                  <td>{e.client_address}</td>
                </tr>
              ))}
              {page.entries.length === 0 && (
                <tr>
                  <td colSpan={7} className="muted">
                    No entries.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <div className="row">
        {cursors.length > 0 && (
          <button type="button" className="btn" onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
        )}
        {page?.next_cursor && (
          <button type="button" className="btn" onClick={() => setCursors([...cursors, page.next_cursor as string])}>
            Older
          </button>
        )}
      </div>
    </>
  );
}
