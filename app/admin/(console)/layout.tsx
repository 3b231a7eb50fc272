import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Shell } from '@/components/admin/shell';
import { SESSION_COOKIE } from '@/lib/admin-auth/session-cookie';

/**
 * The signed-in part of the console. Without a session cookie the visit goes straight to the
 * sign-in page; an expired session is caught by the first API call (401), which redirects too.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  if (!(await cookies()).get(SESSION_COOKIE)?.value) redirect('/admin/login');
  return <Shell>{children}</Shell>;
}
