import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AgentProviders } from '@/components/agent/providers';
import '../admin/admin.css';
import '../admin/admin-forms.css';
import './agent.css';

export const metadata: Metadata = { title: { template: '%s · VA Chat', default: 'Agent workspace · VA Chat' } };

/** Everything under /agent: the workspace of people (agents and managers). Its styles build on the console's. */
export default function AgentLayout({ children }: { children: ReactNode }) {
  return (
    <div className="admin agent">
      <AgentProviders>{children}</AgentProviders>
    </div>
  );
}
