'use client';

import Link from 'next/link';
import { useState } from 'react';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { formatAgo, formatDateTime } from '@/components/admin/lib/format';
import { TableRegion } from '@/components/admin/table-region';
import { type ChatFilters, ChatFiltersForm } from './chat-filters';
import { StatusBadge } from './status-badge';

const PAGE_SIZE = 25;

/** Chats, most recently updated first, filtered and searched, refreshing every 5 s. */
export function ChatsView() {
  const [filters, setFilters] = useState<ChatFilters>({});
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams }).data?.body.response ?? [];
  const users = tsr.users.listUsers.useQuery({ queryKey: keys.users(), queryData: { query: {} } }).data?.body.response ?? [];
  const query = {
    ...(filters.status ? { status: filters.status as never } : {}),
    ...(filters.channel ? { channel: filters.channel as never } : {}),
    ...(filters.team_id ? { team_id: Number(filters.team_id) } : {}),
    ...(filters.assignee ? { assignee: filters.assignee } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
    ...(filters.q ? { q: filters.q } : {}),
    page_size: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  };
  const chats = tsr.chats.listChats.useQuery({
    queryKey: keys.chats(query),
    queryData: { query },
    refetchInterval: 5_000,
    placeholderData: (prev) => prev,
  });
  const page = chats.data?.body.response;
  const applyFilters = (f: ChatFilters) => {
    setFilters(f);
    setCursors([undefined]);
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Chats</h1>
          <p className="muted">
            Refreshes every 5 s{chats.dataUpdatedAt ? ` · updated ${formatAgo(new Date(chats.dataUpdatedAt).toISOString())}` : ''}
            {chats.isFetching && ' · refreshing…'}
          </p>
        </div>
      </div>
      <ChatFiltersForm value={filters} onChange={applyFilters} teams={teams} users={users} />
      {chats.error && <p className="form-error">Could not load chats: {failureOf(chats.error)?.description}</p>}
      {chats.isPending && <p className="muted">Loading…</p>}
      {page && page.chats.length === 0 && <p className="muted">No chats match.</p>}
      {page && page.chats.length > 0 && (
        <TableRegion label="Chats">
          <table>
            <thead>
              <tr>
                <th>Chat</th>
                <th>Customer</th>
                <th>Channel</th>
                <th>Status</th>
                <th>Team</th>
                <th>Assignee</th>
                <th>Tags</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {page.chats.map((c) => (
                <tr key={c.chat_id}>
                  <td>
                    <Link href={`/admin/chats/${c.chat_id}`} className="mono" title={c.chat_id} aria-label={`Chat ${c.chat_id}`}>
                      {c.chat_id.slice(0, 8)}…
                    </Link>
                    {c.alias_id && <div className="muted small">alias {c.alias_id}</div>}
                  </td>
                  <td>
                    {c.customer.name || '—'}
                    <div className="muted small">{c.customer.destination_id}</div>
                  </td>
                  <td>{c.channel}</td>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>{c.team_name}</td>
                  <td className="mono small">{c.assignee ?? '—'}</td>
                  <td>
                    {c.tag.length
                      ? c.tag.map((t) => (
                          <span key={t} className="chip chip-plain">
                            {t}
                          </span>
                        ))
                      : '—'}
                  </td>
                  <td className="small" title={formatDateTime(c.updated_at)}>
                    {formatAgo(c.updated_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <nav className="pager" aria-label="Pages">
        <button type="button" className="btn" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <span className="muted small">Page {cursors.length}</span>
        <button
          type="button"
          className="btn"
          disabled={!page?.next_cursor}
          onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])}
        >
          Older →
        </button>
      </nav>
    </>
  );
}
