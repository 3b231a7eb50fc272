'use client';

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { shouldRetry } from './errors';

/**
 * The react-query client every surface's pages share: refusals are not retried, data is fresh for
 * two seconds and read again when the window regains focus. `onError` sees every failed query and
 * mutation (the console sends an expired session back to its sign-in page); `Provider` is the
 * surface's typed client's own provider (`tsr.ReactQueryProvider`).
 */
export function ApiProviders({
  Provider,
  onError,
  children,
}: {
  Provider: (props: { children: ReactNode }) => ReactNode;
  onError?: (err: unknown) => void;
  children: ReactNode;
}) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError }),
        mutationCache: new MutationCache({ onError }),
        defaultOptions: { queries: { retry: shouldRetry, staleTime: 2_000, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <Provider>{children}</Provider>
    </QueryClientProvider>
  );
}
