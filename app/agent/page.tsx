import type { Metadata } from 'next';
import { AgentApp } from '@/components/agent/workspace';

export const metadata: Metadata = { title: 'Agent workspace' };

export default function AgentPage() {
  return <AgentApp />;
}
