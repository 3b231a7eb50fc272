'use client';

import type { FormEventHandler, InputHTMLAttributes, ReactNode } from 'react';

/**
 * A list's filters: a search landmark named `label` holding one form, its fields in a wrapping grid
 * and its buttons (`actions`) last. `card` draws it as a card of its own (not inside one already).
 * The form checks its fields itself (`noValidate`) unless `nativeValidation` leaves it to the browser.
 */
export function FilterRow({
  label,
  onSubmit,
  actions,
  card = true,
  nativeValidation = false,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  actions: ReactNode;
  card?: boolean;
  nativeValidation?: boolean;
  children: ReactNode;
}) {
  return (
    <search aria-label={label}>
      <form className={card ? 'card filters' : 'filters'} noValidate={!nativeValidation} onSubmit={onSubmit}>
        {children}
        <div className="row">{actions}</div>
      </form>
    </search>
  );
}

/** A filter that picks one of `options`, or "Any" (the empty value). */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
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

/** A typed filter whose value the list applies as it is (no form library behind it). */
export function FilterInput({
  id,
  label,
  value,
  onChange,
  ...input
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} value={value ?? ''} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** The same value and label for each of `values` (an enum shown as it is). */
export const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
