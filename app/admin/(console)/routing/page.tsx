import type { Metadata } from 'next';
import { RoutingView } from '@/components/admin/routing/routing-view';

export const metadata: Metadata = { title: 'Routing rules' };

export default function RoutingPage() {
  return <RoutingView />;
}
