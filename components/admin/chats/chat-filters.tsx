'use client';

import { type FormEvent, useState } from 'react';
import { CHANNELS, CHAT_STATUSES } from '@/contracts/enums';
import type { AdminTeam } from '@/contracts/schemas/admin-team';
import type { AdminUser } from '@/contracts/schemas/admin-user';

export type ChatFilters = { status?: string; channel?: string; team_id?: string; assignee?: string; tag?: string; q?: string };

/** Filters apply as they change; the text search and the tag apply on Enter or Search. */
export function ChatFiltersForm({
  value,
  onChange,
  teams,
  users,
}: {
  value: ChatFilters;
  onChange: (f: ChatFilters) => void;
  teams: AdminTeam[];
  users: AdminUser[];
}) {
  const [q, setQ] = useState(value.q ?? '');
  const [tag, setTag] = useState(value.tag ?? '');
  const set = (patch: ChatFilters) => onChange({ ...value, ...patch });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ q: q.trim() || undefined, tag: tag.trim() || undefined });
  };
  const select = (id: keyof ChatFilters, label: string, options: { value: string; label: string }[]) => (
    <div className="field">
      <label htmlFor={`f-${id}`}>{label}</label>
      <select id={`f-${id}`} value={value[id] ?? ''} onChange={(e) => set({ [id]: e.target.value || undefined })}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <search>
      <form className="card filters" onSubmit={submit} aria-label="Search chats">
        <div className="field filters-q">
          <label htmlFor="f-q">Search</label>
          <input id="f-q" type="search" placeholder="Chat ID, alias ID or customer" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        {select(
          'status',
          'Status',
          CHAT_STATUSES.map((s) => ({ value: s, label: s })),
        )}
        {select(
          'channel',
          'Channel',
          CHANNELS.map((c) => ({ value: c, label: c })),
        )}
        {select(
          'team_id',
          'Team',
          teams.map((t) => ({ value: String(t.id), label: t.name })),
        )}
        {select(
          'assignee',
          'Assignee',
          users.map((u) => ({ value: u.login_id, label: `${u.name} (${u.kind.replace('_', ' ')})` })),
        )}
        <div className="field">
          <label htmlFor="f-tag">Tag</label>
          <input id="f-tag" value={tag} onChange={(e) => setTag(e.target.value)} />
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary">
            Search
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setQ('');
              setTag('');
              onChange({});
            }}
          >
            Clear
          </button>
        </div>
      </form>
    </search>
  );
}
