import { redirect } from 'next/navigation';

/** The address a VA's page had while Virtual Agents were a tab under Users (printed in older demo logins). */
export default async function FormerVirtualAgentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ trxid?: string | string[] }>;
}) {
  const { id } = await params;
  const trxid = (await searchParams).trxid;
  const one = Array.isArray(trxid) ? trxid[0] : trxid;
  redirect(`/admin/virtual-agents/${encodeURIComponent(id)}${one ? `?trxid=${encodeURIComponent(one)}` : ''}`);
}
