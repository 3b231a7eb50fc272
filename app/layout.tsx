import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'VA Chat',
  description: 'Virtual Agent chat integration service',
  icons: { icon: { url: '/favicon.ico', type: 'image/svg+xml' } },
};

/**
 * The root layout stays minimal: sections such as /docs or the admin pages bring their own.
 * Every page renders per request: its scripts need the nonce of that request's CSP (proxy.ts).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
