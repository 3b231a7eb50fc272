'use client';

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { tsr } from '@/components/admin/shared/client';
import { isUnauthorized, shouldRetry } from '@/components/admin/shared/errors';
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
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: toLogin }),
        mutationCache: new MutationCache({ onError: toLogin }),
        defaultOptions: { queries: { retry: shouldRetry, staleTime: 2_000, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <tsr.ReactQueryProvider>
        <ToastProvider>{children}</ToastProvider>
      </tsr.ReactQueryProvider>
    </QueryClientProvider>
  );
}
