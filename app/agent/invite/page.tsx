import type { Metadata } from 'next';
import { AcceptInviteForm } from '@/components/agent/sign-in';

export const metadata: Metadata = { title: 'Set your password' };

export default function InvitePage() {
  return <AcceptInviteForm />;
}
