import type { Metadata } from 'next';
import Link from 'next/link';
import { VaForm } from '@/components/admin/va/va-form';

export const metadata: Metadata = { title: 'Add Virtual Agent' };

export default function NewVirtualAgentPage() {
  return (
    <>
      <p className="small">
        <Link href="/admin/virtual-agents">← Virtual Agents</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>Add Virtual Agent</h1>
          <p className="muted">Register a bot. Its API key and webhook signing secret are shown once, right after saving.</p>
        </div>
      </div>
      <VaForm />
    </>
  );
}
