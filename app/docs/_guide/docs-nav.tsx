'use client';

import { usePathname } from 'next/navigation';
import styles from '../docs.module.css';

const SECTIONS = [
  { href: '/docs', label: 'Guide', current: (p: string) => p === '/docs' || p.startsWith('/docs/guide') },
  { href: '/docs/bot-api', label: 'Bot API reference', current: (p: string) => p === '/docs/bot-api' },
  { href: '/docs/admin-api', label: 'Admin API reference', current: (p: string) => p === '/docs/admin-api' },
];

/** The docs' top bar: the guide and the two references, plain links (each page loads whole). */
export function DocsNav() {
  const pathname = usePathname() ?? '/docs';
  return (
    <header className={styles.topbar}>
      <a href="#content" className={styles.skip}>
        Skip to content
      </a>
      <a href="/docs" className={styles.brand}>
        VA Chat docs
      </a>
      <nav aria-label="Documentation">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.href}>
              <a href={s.href} aria-current={s.current(pathname) ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
          <li>
            <a href="/admin">Admin</a>
          </li>
        </ul>
      </nav>
    </header>
  );
}
