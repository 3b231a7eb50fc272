'use client';

import type { HTMLAttributes, Key, ReactElement, ReactNode, TdHTMLAttributes } from 'react';
import { TableRegion } from '@/components/admin/table-region';
import { failureOf } from '@/components/shared/errors';

/** One column: its header and what each row shows in it. */
export type Column<Row> = {
  /** Plain text, or markup where the header is for screen readers only (an "Actions" column). */
  header: ReactNode;
  /** The cell of a row; left out when `renderRow` draws whole rows. */
  cell?: (row: Row) => ReactNode;
  /** Class of the header and of every cell in the column (`num` aligns numbers right). */
  className?: string;
  /** Further attributes of one row's cell (a class of its own, a title). */
  cellProps?: (row: Row) => TdHTMLAttributes<HTMLTableCellElement>;
};

/** Attributes of a row, `data-*` included. */
export type RowProps = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

const joined = (...names: (string | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * A list as a table in a labelled, keyboard-scrollable region (see TableRegion). The label also
 * names the table (a caption for screen readers). Nothing is drawn until `rows` is known; an empty
 * list shows `empty` as a note in place of the table, or, with `emptyInTable`, as the table's one row.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  renderRow,
  empty,
  emptyInTable = false,
  className,
  regionClassName,
}: {
  label: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey?: (row: Row) => Key;
  rowProps?: (row: Row) => RowProps;
  /** Draws a whole row (with its key) where a row is a component of its own. */
  renderRow?: (row: Row) => ReactElement;
  empty?: ReactNode;
  emptyInTable?: boolean;
  /** Class of the table element. */
  className?: string;
  /** Class of the scrolling region, beside `table-wrap`. */
  regionClassName?: string;
}) {
  if (!rows) return null;
  if (rows.length === 0 && !emptyInTable) return empty ? <p className="muted">{empty}</p> : null;
  return (
    <TableRegion label={label} className={regionClassName}>
      <table className={className}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table; a header need not be text
              <th key={i} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, n) =>
            renderRow ? (
              renderRow(row)
            ) : (
              <tr key={rowKey ? rowKey(row) : n} {...rowProps?.(row)}>
                {columns.map((c, i) => {
                  const extra = c.cellProps?.(row);
                  return (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                    <td key={i} {...extra} className={joined(c.className, extra?.className)}>
                      {c.cell?.(row)}
                    </td>
                  );
                })}
              </tr>
            ),
          )}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="muted">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** "Loading…" while a list's first answer is awaited, and the envelope's description if it failed. */
export function LoadState({
  query,
  failure = 'Could not load',
}: {
  query: { isPending: boolean; error: unknown };
  /** The words before the description: "Could not load chats". */
  failure?: string;
}) {
  return (
    <>
      {query.error ? (
        <p className="form-error">
          {failure}: {failureOf(query.error)?.description}
        </p>
      ) : null}
      {query.isPending && <p className="muted">Loading…</p>}
    </>
  );
}
