'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { PeopleTab } from './people-tab';
import { VirtualAgentsTab } from './va-tab';

const TABS = [
  { id: 'agents', label: 'Agents' },
  { id: 'managers', label: 'Managers' },
  { id: 'virtual-agents', label: 'Virtual Agents' },
] as const;

export function UsersView() {
  const params = useSearchParams();
  const tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'agents';
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Users</h1>
          <p className="muted">Agents and managers work chats; Virtual Agents are bots that receive events at a webhook.</p>
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="Kinds of users">
        {TABS.map((t) => (
          <Link
            key={t.id}
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="users-panel"
            href={`/admin/users?tab=${t.id}`}
          >
            {t.label}
          </Link>
        ))}
      </div>
      <div id="users-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'agents' && <PeopleTab kind="agent" />}
        {tab === 'managers' && <PeopleTab kind="manager" />}
        {tab === 'virtual-agents' && <VirtualAgentsTab />}
      </div>
    </>
  );
}
