'use client';

import { ROUTING_OPS } from '@/contracts/admin/schemas/routing';

export type Op = (typeof ROUTING_OPS)[number];
export type CondRow = { id: number; kind: string; key: string; op: Op; value: string };

const KINDS = ['channel', 'asset_id', 'customer.destination_id', 'customer.name', 'other_details', 'route_params'] as const;
const KEYED = new Set(['other_details', 'route_params']);
let nextId = 1;

export function newCond(field = 'channel', op: Op = 'equals', value: string | string[] = ''): CondRow {
  const [head, ...rest] = field.split('.');
  const keyed = KEYED.has(head);
  return {
    id: nextId++,
    kind: keyed ? head : field,
    key: keyed ? rest.join('.') : '',
    op,
    value: Array.isArray(value) ? value.join(', ') : value,
  };
}

export function toConditions(rows: CondRow[]) {
  return rows.map((r) => ({
    field: KEYED.has(r.kind) ? `${r.kind}.${r.key.trim()}` : r.kind,
    op: r.op,
    value:
      r.op === 'in'
        ? r.value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : r.value,
  }));
}

/** The conditions of a rule: field, operator and value per row; all must hold. */
export function ConditionRows({
  rows,
  onChange,
  errorOf,
}: {
  rows: CondRow[];
  onChange: (rows: CondRow[]) => void;
  errorOf: (index: number) => string | undefined;
}) {
  const update = (id: number, patch: Partial<CondRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <fieldset>
      <legend>Conditions (all must hold; none matches every chat)</legend>
      {rows.map((r, i) => {
        const p = `cond-${r.id}`;
        const error = errorOf(i);
        return (
          <div key={r.id} className="cond-row">
            <div>
              <label htmlFor={`${p}-field`} className="small">
                Field {i + 1}
              </label>
              <select id={`${p}-field`} value={r.kind} onChange={(e) => update(r.id, { kind: e.target.value })}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KEYED.has(k) ? `${k}.<key>` : k}
                  </option>
                ))}
              </select>
            </div>
            {KEYED.has(r.kind) && (
              <div>
                <label htmlFor={`${p}-key`} className="small">
                  Key
                </label>
                <input id={`${p}-key`} value={r.key} onChange={(e) => update(r.id, { key: e.target.value })} />
              </div>
            )}
            <div>
              <label htmlFor={`${p}-op`} className="small">
                Operator
              </label>
              <select id={`${p}-op`} value={r.op} onChange={(e) => update(r.id, { op: e.target.value as Op })}>
                {ROUTING_OPS.map((o) => (
                  <option key={o} value={o}>
                    {o.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </div>
            <div className="cond-value">
              <label htmlFor={`${p}-value`} className="small">
                {r.op === 'in' ? 'Values (comma-separated)' : 'Value'}
              </label>
              <input
                id={`${p}-value`}
                value={r.value}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${p}-error` : undefined}
                onChange={(e) => update(r.id, { value: e.target.value })}
              />
            </div>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => onChange(rows.filter((x) => x.id !== r.id))}>
              Remove<span className="sr-only"> condition {i + 1}</span>
            </button>
            {error && (
              <p id={`${p}-error`} className="field-error kv-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" className="btn btn-small" onClick={() => onChange([...rows, newCond()])}>
        Add condition
      </button>
    </fieldset>
  );
}
