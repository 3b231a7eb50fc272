'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { keys, tsr } from '@/components/admin/shared/client';
import { focusWhenReady, useEscape } from '@/components/shared/focus';
import { leaveConsole } from './providers';
import { useToast } from './toast';
import { TraceSearch } from './traces/trace-search';

/** True once the console has drawn a page, so only later page changes move focus. */
let shown = false;

/** Set by the sign-in form: the first console page after signing in takes focus too. */
export function focusNextPage() {
  shown = true;
}

/**
 * After a page change, focus goes to the new page's main heading (which may appear only once its
 * data has loaded) and the page's title is announced, so a keyboard or screen-reader user
 * continues from the top of the new content instead of from the top of the document.
 */
function usePageFocus(pathname: string) {
  const toast = useToast();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    if (!shown) {
      shown = true;
      return;
    }
    // A page may name something more urgent than its heading (`data-page-focus`, e.g. credentials
    // shown once); the page's title is announced either way.
    focusWhenReady(
      () => document.querySelector<HTMLElement>('#main [data-page-focus]') ?? document.querySelector<HTMLElement>('#main h1'),
      () => toast.announce(`Page: ${document.querySelector('#main h1')?.textContent ?? document.title}`),
    );
  }, [pathname]);
}

const NAV = [
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/virtual-agents', label: 'Virtual Agents' },
  { href: '/admin/teams', label: 'Teams & skills' },
  { href: '/admin/assets', label: 'Channel assets' },
  { href: '/admin/routing', label: 'Routing rules' },
  { href: '/admin/chats', label: 'Chats' },
  { href: '/admin/deliveries', label: 'Deliveries' },
  { href: '/admin/replays', label: 'Replays' },
  { href: '/admin/audit', label: 'Audit log' },
];

/** Header, navigation and sign-out around every signed-in page. */
export function Shell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const toast = useToast();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => {
    setMenuOpen(false);
    menuButton.current?.focus();
  }, []);
  useEscape(menuOpen, closeMenu);
  usePageFocus(pathname);
  const me = tsr.session.me.useQuery({ queryKey: keys.me, staleTime: 60_000 });
  const logout = tsr.session.logout.useMutation({
    onSuccess: () => leaveConsole('/admin/login'),
    onError: () => toast.error('Sign-out failed; try again.'),
  });

  // Close the phone menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => setMenuOpen(false), [pathname]);

  const profile = me.data?.body.response;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/admin/chats" className="brand">
          VA Chat <span>admin</span>
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="btn btn-ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="admin-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <TraceSearch />
        <div className="whoami">
          {profile && (
            <span className="muted" title={profile.email}>
              {profile.account.name} · {profile.email}
            </span>
          )}
          <button type="button" className="btn btn-small" disabled={logout.isPending} onClick={() => logout.mutate({})}>
            {logout.isPending ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      </header>
      <div className="shell-body">
        <nav id="admin-nav" aria-label="Admin" className={`sidenav${menuOpen ? ' sidenav-open' : ''}`}>
          <ul>
            {NAV.map((item) => {
              const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <Link href={item.href} aria-current={active ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              );
            })}
            <li>
              <a href="/docs">API reference</a>
            </li>
          </ul>
        </nav>
        <main id="main" className="content">
          {children}
        </main>
      </div>
    </div>
  );
}
