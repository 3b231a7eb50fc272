'use client';

import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

type Toast = { id: number; kind: 'success' | 'error'; text: string };
type ToastApi = {
  success: (text: string) => void;
  error: (text: string) => void;
  /** Says something to screen readers only (a page change, a result that already has focus). */
  announce: (text: string) => void;
};

const ToastContext = createContext<ToastApi | null>(null);
let nextId = 1;

/**
 * Short confirmations of saved changes, announced to screen readers through a polite live region,
 * plus a hidden polite region for announcements that need no box on screen.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [spoken, setSpoken] = useState({ id: 0, text: '' });
  const push = useCallback((kind: Toast['kind'], text: string) => {
    const id = nextId++;
    setToasts((t) => [...t.slice(-3), { id, kind, text }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), kind === 'error' ? 10_000 : 6000);
  }, []);
  const api = useMemo<ToastApi>(
    () => ({
      success: (t) => push('success', t),
      error: (t) => push('error', t),
      announce: (text) => setSpoken((s) => ({ id: s.id + 1, text })),
    }),
    [push],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        <span key={spoken.id}>{spoken.text}</span>
      </div>
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
            {t.text}
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss"
              onClick={() => setToasts((all) => all.filter((x) => x.id !== t.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
