import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { UsersView } from '@/components/admin/users/users-view';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ tab?: string | string[] }> }) {
  // Virtual Agents were a tab here before they had their own page.
  if ((await searchParams).tab === 'virtual-agents') redirect('/admin/virtual-agents');
  return (
    <Suspense>
      <UsersView />
    </Suspense>
  );
}
