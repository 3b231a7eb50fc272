import type { Metadata } from 'next';
import { ApiReference } from '../_reference/api-reference';

export const metadata: Metadata = { title: 'Admin API reference · VA Chat docs' };

export default function AdminApiReference() {
  return <ApiReference url="/api/admin/openapi.json" title="Admin API reference" />;
}
