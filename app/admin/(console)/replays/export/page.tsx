import type { Metadata } from 'next';
import { ExportView } from '@/components/admin/replays/export-view';

export const metadata: Metadata = { title: 'Export recordings' };

export default function ExportRecordingsPage() {
  return <ExportView />;
}
