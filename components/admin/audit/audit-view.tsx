'use client';

import { useState } from 'react';
import { Field } from '@/components/admin/form';
import { tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { contractResolver } from '@/components/admin/lib/form-words';
import { formatDateTime } from '@/components/admin/lib/format';
import { TableRegion } from '@/components/admin/table-region';
import { useContractForm } from '@/components/admin/use-contract-form';
import { type AuditQuery, auditQuerySchema } from '@/contracts/schemas/admin-audit';

type FilterValues = { admin_email: string; action: string; target_id: string };
const filterSchema = auditQuerySchema.pick({ admin_email: true, action: true, target_id: true });
const resolver = contractResolver(
  filterSchema,
  (v: FilterValues) => Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x.trim() ? [[k, x.trim()]] : []))),
  { admin_email: 'the administrator', action: 'the action', target_id: 'the target id' },
);

/** The account's audit log: newest first, filtered by administrator, action or target id. */
export function AuditView() {
  const [filters, setFilters] = useState<AuditQuery>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const query: AuditQuery = { ...filters, page_size: 50, cursor: cursors.at(-1) };
  const result = tsr.audit.listAuditEntries.useQuery({ queryKey: ['audit', query], queryData: { query } });
  const page = result.data?.body.response;
  const form = useContractForm<FilterValues, AuditQuery>(resolver, { admin_email: '', action: '', target_id: '' });
  const err = form.messages(null);

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
      <search>
        <form
          className="card filters"
          noValidate
          aria-label="Filter the audit log"
          onSubmit={form.handleSubmit((picked) => {
            setCursors([]);
            setFilters(picked);
          })}
        >
          <Field id="audit-admin" label="Administrator" hint="Their email" error={err('admin_email')}>
            <input {...form.bind('admin_email', 'audit-admin', { failure: null, hint: true })} type="email" />
          </Field>
          <Field id="audit-action" label="Action" hint="e.g. virtual-agents" error={err('action')}>
            <input {...form.bind('action', 'audit-action', { failure: null, hint: true })} />
          </Field>
          <Field id="audit-target" label="Target id" error={err('target_id')}>
            <input {...form.bind('target_id', 'audit-target', { failure: null })} />
          </Field>
          <div className="row">
            <button type="submit" className="btn btn-primary">
              Filter
            </button>
          </div>
        </form>
      </search>
      {result.error && <p className="form-error">Could not load: {failureOf(result.error)?.description}</p>}
      {result.isPending && <p className="muted">Loading…</p>}
      {page && (
        <TableRegion label="Audit entries">
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
        </TableRegion>
      )}
      <nav className="pager" aria-label="Pages">
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
      </nav>
    </>
  );
}
