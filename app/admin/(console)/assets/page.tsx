import type { Metadata } from 'next';
import { AssetsView } from '@/components/admin/assets/assets-view';

export const metadata: Metadata = { title: 'Channel assets' };

export default function AssetsPage() {
  return <AssetsView />;
}
