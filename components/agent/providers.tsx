'use client';

import type { ReactNode } from 'react';
import { ApiProviders } from '@/components/shared/providers';
import { tsr } from './client';

export function AgentProviders({ children }: { children: ReactNode }) {
  return <ApiProviders Provider={tsr.ReactQueryProvider}>{children}</ApiProviders>;
}
