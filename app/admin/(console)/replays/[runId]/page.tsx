import type { Metadata } from 'next';
import { RunView } from '@/components/admin/replays/run-view';

export const metadata: Metadata = { title: 'Replay run' };

export default async function ReplayRunPage({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { runId } = await params;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === 'string') search.set(k, v);
  return <RunView runId={runId} search={search.toString()} />;
}
