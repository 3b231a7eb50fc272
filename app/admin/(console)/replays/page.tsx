import type { Metadata } from 'next';
import { ReplaysView } from '@/components/admin/replays/replays-view';

export const metadata: Metadata = { title: 'Replays' };

export default function ReplaysPage() {
  return <ReplaysView />;
}
