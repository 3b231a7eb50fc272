import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = { title: 'VA Chat', description: 'Virtual Agent chat integration service' };

/** The root layout stays minimal: sections such as /docs or the admin pages bring their own. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
