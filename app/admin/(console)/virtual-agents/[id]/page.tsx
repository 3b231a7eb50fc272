import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { VaDetail } from '@/components/admin/va/va-detail';

export const metadata: Metadata = { title: 'Virtual Agent' };

export default async function VirtualAgentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ trxid?: string | string[] }>;
}) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  const trxid = (await searchParams).trxid;
  return <VaDetail id={id} trxid={Array.isArray(trxid) ? trxid[0] : trxid} />;
}
