'use client';

export type KvRow = { id: number; key: string; value: string };

let rowId = 1;
const newRow = (key = '', value = ''): KvRow => ({ id: rowId++, key, value });
export const toRows = (record: Record<string, string> | undefined): KvRow[] => Object.entries(record ?? {}).map(([k, v]) => newRow(k, v));
export const toRecord = (rows: KvRow[]): Record<string, string> =>
  Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));

/**
 * Editable name/value rows (static headers, custom attributes). `check` returns a row's problem;
 * `serverError` gives the server's message for a key, so each error sits beside its row.
 */
export function KvRows({
  id,
  legend,
  rows,
  onChange,
  keyLabel = 'Name',
  valueLabel = 'Value',
  addLabel = 'Add row',
  check,
  serverError,
  hint,
}: {
  id: string;
  legend: string;
  rows: KvRow[];
  onChange: (rows: KvRow[]) => void;
  keyLabel?: string;
  valueLabel?: string;
  addLabel?: string;
  check?: (row: KvRow, rows: KvRow[]) => string | null;
  serverError?: (key: string) => string | undefined;
  hint?: string;
}) {
  const update = (rid: number, patch: Partial<KvRow>) => onChange(rows.map((r) => (r.id === rid ? { ...r, ...patch } : r)));
  return (
    <fieldset className="kv" aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {rows.length === 0 && <p className="muted">None.</p>}
      {rows.map((row, i) => {
        const problem = (row.key || row.value ? check?.(row, rows) : null) ?? serverError?.(row.key.trim()) ?? null;
        const errId = `${id}-${row.id}-error`;
        return (
          <div key={row.id} className="kv-row">
            <div className="kv-cell">
              <label htmlFor={`${id}-${row.id}-key`} className="sr-only">
                {keyLabel} {i + 1}
              </label>
              <input
                id={`${id}-${row.id}-key`}
                placeholder={keyLabel}
                value={row.key}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errId : undefined}
                onChange={(e) => update(row.id, { key: e.target.value })}
              />
            </div>
            <div className="kv-cell">
              <label htmlFor={`${id}-${row.id}-value`} className="sr-only">
                {valueLabel} {i + 1}
              </label>
              <input
                id={`${id}-${row.id}-value`}
                placeholder={valueLabel}
                value={row.value}
                onChange={(e) => update(row.id, { value: e.target.value })}
              />
            </div>
            <button
              type="button"
              className="btn btn-small btn-ghost"
              aria-label={`Remove ${row.key || `row ${i + 1}`}`}
              onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
            >
              Remove
            </button>
            {problem && (
              <p id={errId} className="field-error kv-error">
                {problem}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" className="btn btn-small" onClick={() => onChange([...rows, newRow()])}>
        {addLabel}
      </button>
    </fieldset>
  );
}

/** Problems of any row, so a form can refuse to send while one is shown. */
export function rowsProblems(rows: KvRow[], check: (row: KvRow, rows: KvRow[]) => string | null): string[] {
  return rows.filter((r) => r.key || r.value).flatMap((r) => check(r, rows) ?? []);
}

export function duplicateKey(row: KvRow, rows: KvRow[]): string | null {
  const k = row.key.trim().toLowerCase();
  return k && rows.some((r) => r.id !== row.id && r.key.trim().toLowerCase() === k) ? 'Duplicate name' : null;
}
