import type { Metadata } from 'next';
import { VirtualAgentList } from '@/components/admin/va/va-list';

export const metadata: Metadata = { title: 'Virtual Agents' };

export default function VirtualAgentsPage() {
  return <VirtualAgentList />;
}
