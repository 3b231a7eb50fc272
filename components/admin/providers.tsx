'use client';

import type { ReactNode } from 'react';
import { tsr } from '@/components/admin/shared/client';
import { isUnauthorized } from '@/components/shared/errors';
import { ApiProviders } from '@/components/shared/providers';
import { ToastProvider } from './toast';

let leaving = false;

/** Leaves the console with a full page load, which also drops every credential kept in memory. */
export function leaveConsole(url: string) {
  leaving = true;
  window.location.replace(url);
}

/** An expired session anywhere sends the administrator back to the sign-in page, then here again. */
function toLogin(err: unknown) {
  if (leaving || !isUnauthorized(err) || window.location.pathname.startsWith('/admin/login')) return;
  const next = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/admin/login?next=${encodeURIComponent(next)}`);
}

export function AdminProviders({ children }: { children: ReactNode }) {
  return (
    <ApiProviders Provider={tsr.ReactQueryProvider} onError={toLogin}>
      <ToastProvider>{children}</ToastProvider>
    </ApiProviders>
  );
}
