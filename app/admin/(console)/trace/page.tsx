import type { Metadata } from 'next';
import { TraceView } from '@/components/admin/traces/trace-view';

export const metadata: Metadata = { title: 'Find by id' };

export default async function TracePage({ searchParams }: { searchParams: Promise<{ id?: string | string[] }> }) {
  const raw = (await searchParams).id;
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  return <TraceView key={id} id={id} />;
}
