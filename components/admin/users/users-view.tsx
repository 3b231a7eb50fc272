'use client';

import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import type { KeyboardEvent } from 'react';
import { focusId } from '@/components/shared/focus';
import { PeopleTab } from './people-tab';

const TABS = [
  { id: 'agents', label: 'Agents' },
  { id: 'managers', label: 'Managers' },
] as const;

export function UsersView() {
  const params = useSearchParams();
  const router = useRouter();
  const tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'agents';
  const select = (id: string) => {
    router.replace(`/admin/users?tab=${id}`, { scroll: false });
    focusId(`tab-${id}`);
  };
  // WAI-ARIA tabs: arrows move between tabs (and select them), Home and End jump to the ends.
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    select(TABS[(next + TABS.length) % TABS.length].id);
  };
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Users</h1>
          <p className="muted">
            Agents and managers work chats. Bots are under <Link href="/admin/virtual-agents">Virtual Agents</Link>.
          </p>
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="Kinds of users" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="users-panel"
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => select(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes the panel a tab stop */}
      <div id="users-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'agents' && <PeopleTab kind="agent" />}
        {tab === 'managers' && <PeopleTab kind="manager" />}
      </div>
    </>
  );
}
