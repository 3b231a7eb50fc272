import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { VaDetail } from '@/components/admin/va/va-detail';

export const metadata: Metadata = { title: 'Virtual Agent' };

export default async function VirtualAgentPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return <VaDetail id={id} />;
}
