import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AdminProviders } from '@/components/admin/providers';
import './admin.css';
import './admin-forms.css';
import './admin-pages.css';
import './admin-responsive.css';
import './admin-trace.css';

export const metadata: Metadata = { title: { template: '%s · VA Chat admin', default: 'VA Chat admin' } };

/** Everything under /admin: the react-query client, toasts and the admin styles. */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <div className="admin">
      <AdminProviders>{children}</AdminProviders>
    </div>
  );
}
