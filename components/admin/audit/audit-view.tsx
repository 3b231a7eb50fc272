'use client';

import { useState } from 'react';
import { type Column, DataTable, LoadState } from '@/components/admin/data-table';
import { FilterRow } from '@/components/admin/filter-row';
import { Field } from '@/components/admin/form';
import { Pager, useCursorPages } from '@/components/admin/pager';
import { tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { formatDateTime } from '@/components/admin/shared/format';
import { useContractForm } from '@/components/admin/use-contract-form';
import { type AuditEntry, type AuditQuery, auditQuerySchema } from '@/contracts/admin/schemas/audit';

type FilterValues = { admin_email: string; action: string; target_id: string };
const filterSchema = auditQuerySchema.pick({ admin_email: true, action: true, target_id: true });
const resolver = contractResolver(
  filterSchema,
  (v: FilterValues) => Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x.trim() ? [[k, x.trim()]] : []))),
  { admin_email: 'the administrator', action: 'the action', target_id: 'the target id' },
);

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (e) => formatDateTime(e.at) },
  { header: 'Administrator', cell: (e) => e.admin_email },
  { header: 'Action', cell: (e) => <code>{e.action}</code> },
  { header: 'Target', cell: (e) => e.target_id ?? '—' },
  { header: 'Fields', cell: (e) => e.fields.map((f) => (f in e.values ? `${f}=${String(e.values[f])}` : f)).join(', ') || '—' },
  { header: 'Status', cell: (e) => e.http_status },
  { header: 'From', cell: (e) => e.client_address },
];

/** The account's audit log: newest first, filtered by administrator, action or target id. */
export function AuditView() {
  const [filters, setFilters] = useState<AuditQuery>({});
  const pages = useCursorPages();
  const query: AuditQuery = { ...filters, page_size: 50, cursor: pages.cursor };
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
      <FilterRow
        label="Filter the audit log"
        onSubmit={form.handleSubmit((picked) => {
          pages.reset();
          setFilters(picked);
        })}
        actions={
          <button type="submit" className="btn btn-primary">
            Filter
          </button>
        }
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
      </FilterRow>
      <LoadState query={result} />
      <DataTable label="Audit entries" columns={COLUMNS} rows={page?.entries} rowKey={(e) => e.id} empty="No entries." emptyInTable />
      <Pager pages={pages} next={page?.next_cursor} />
    </>
  );
}
