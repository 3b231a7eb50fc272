import type { Metadata } from 'next';
import { StartReplay } from '@/components/admin/replays/start-replay';

export const metadata: Metadata = { title: 'Start a replay' };

export default function StartReplayPage() {
  return <StartReplay />;
}
