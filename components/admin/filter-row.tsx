'use client';

import type { FormEventHandler, ReactNode, SelectHTMLAttributes } from 'react';

/**
 * A list's filters: a search landmark named `label` holding one form, its fields in a wrapping grid
 * and its buttons (`actions`) last. `card` draws it as a card of its own (not inside one already).
 * The page checks the fields itself (against the contract), so the browser's own checks are off.
 */
export function FilterRow({
  label,
  onSubmit,
  actions,
  card = true,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  actions: ReactNode;
  card?: boolean;
  children: ReactNode;
}) {
  return (
    <search aria-label={label}>
      <form className={card ? 'card filters' : 'filters'} noValidate onSubmit={onSubmit}>
        {children}
        <div className="row">{actions}</div>
      </form>
    </search>
  );
}

/**
 * A filter that picks one of `options`, or "Any" (the empty value). The rest of the props go to the
 * select: `value` and `onChange` for a filter that applies at once, or a form library's registration.
 */
export function FilterSelect({
  id,
  label,
  options,
  ...select
}: {
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The same value and label for each of `values` (an enum shown as it is). */
export const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
