'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { AgentApiError } from './api';

/** Refusals (4xx) are answers, not failures to retry. */
function shouldRetry(count: number, err: unknown): boolean {
  if (err instanceof AgentApiError && err.status < 500) return false;
  return count < 2;
}

export function AgentProviders({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, staleTime: 2_000, refetchOnWindowFocus: true } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
