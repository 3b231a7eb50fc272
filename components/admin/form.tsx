'use client';

import { type ReactNode, type Ref, useEffect, useRef } from 'react';
import type { Failure } from '@/components/shared/errors';

/** A labelled form control with its hint and error, wired with aria-describedby. */
export function Field({
  id,
  label,
  hint,
  error,
  required,
  className,
  children,
}: {
  id: string;
  className?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Props that tie an input to its Field's hint and error. */
export function described(id: string, { error, hint, required }: { error?: string | null; hint?: boolean; required?: boolean }) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids || undefined,
    'aria-required': required || undefined,
  } as const;
}

/**
 * The envelope's description of a refused request, above the form, with the field errors that
 * no field of the form shows itself (`placed` lists the fields, or field prefixes, shown beside inputs).
 */
export function FormError({
  failure,
  title = 'Not saved',
  placed = [],
  focus = true,
}: {
  failure: Failure | null;
  title?: string;
  placed?: string[];
  /** Moves focus to the message when it appears, so a keyboard user is not left on a dead button. */
  focus?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure && focus) box.current?.focus();
  }, [failure, focus]);
  if (!failure) return null;
  const unplaced = Object.entries(failure.fields).filter(([f]) => !placed.some((p) => f === p || f.startsWith(`${p}.`)));
  return (
    <div className="form-error" role="alert" tabIndex={-1} ref={box}>
      <strong>{title}.</strong> {failure.description}
      {failure.code !== null && <span className="muted"> (code {failure.code})</span>}
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A submit button that says what it is doing and cannot be pressed twice. While pending it stays
 * focusable (aria-disabled rather than disabled), so focus does not fall back to the page.
 */
export function SubmitButton({
  pending,
  children,
  pendingText = 'Saving…',
  className = 'btn btn-primary',
  type = 'submit',
  onClick,
  disabled,
  ref,
}: {
  ref?: Ref<HTMLButtonElement>;
  pending: boolean;
  children: ReactNode;
  pendingText?: string;
  className?: string;
  type?: 'submit' | 'button';
  onClick?: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      ref={ref}
      type={type}
      className={className}
      disabled={disabled && !pending}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(e) => {
        if (pending) e.preventDefault();
        else onClick?.();
      }}
    >
      {pending ? pendingText : children}
    </button>
  );
}

/** A toggle switch: a button with role switch, labelled by its purpose; keeps focus while saving. */
export function Switch({ on, label, pending, onToggle }: { on: boolean; label: string; pending?: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={label}
      className={`switch${on ? ' switch-on' : ''}`}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={() => {
        if (!pending) onToggle();
      }}
    >
      <span className="switch-knob" aria-hidden="true" />
      <span className="switch-text">{pending ? 'Saving…' : on ? 'On' : 'Off'}</span>
    </button>
  );
}

/** The options of a team select: the empty choice (named by `empty`), then each team. */
export function TeamOptions({ teams, empty }: { teams: { id: number; name: string }[]; empty: string }) {
  return (
    <>
      <option value="">{empty}</option>
      {teams.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name}
        </option>
      ))}
    </>
  );
}
