'use client';

import Link from 'next/link';
import { useState } from 'react';
import { type Column, DataTable, LoadState } from '@/components/admin/data-table';
import { Pager, useCursorPages } from '@/components/admin/pager';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatAgo, formatDateTime } from '@/components/admin/shared/format';
import type { Chat } from '@/contracts/bot/schemas/chat';
import { type ChatFilters, ChatFiltersForm } from './chat-filters';
import { StatusBadge } from './status-badge';

const PAGE_SIZE = 25;

const COLUMNS: Column<Chat>[] = [
  {
    header: 'Chat',
    cell: (c) => (
      <>
        <Link href={`/admin/chats/${c.chat_id}`} className="mono" title={c.chat_id} aria-label={`Chat ${c.chat_id}`}>
          {c.chat_id.slice(0, 8)}…
        </Link>
        {c.alias_id && <div className="muted small">alias {c.alias_id}</div>}
      </>
    ),
  },
  {
    header: 'Customer',
    cell: (c) => (
      <>
        {/* The name leads to the chat too: a newcomer looks for the customer, not the chat ID. */}
        <Link href={`/admin/chats/${c.chat_id}`}>{c.customer.name || c.customer.destination_id}</Link>
        {c.customer.name && <div className="muted small">{c.customer.destination_id}</div>}
      </>
    ),
  },
  { header: 'Channel', cell: (c) => c.channel },
  { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
  { header: 'Team', cell: (c) => c.team_name },
  { header: 'Assignee', cell: (c) => c.assignee ?? '—', cellProps: () => ({ className: 'mono small' }) },
  {
    header: 'Tags',
    cell: (c) =>
      c.tag.length
        ? c.tag.map((t) => (
            <span key={t} className="chip chip-plain">
              {t}
            </span>
          ))
        : '—',
  },
  {
    header: 'Updated',
    cell: (c) => formatAgo(c.updated_at),
    cellProps: (c) => ({ className: 'small', title: formatDateTime(c.updated_at) }),
  },
];

/** Chats, most recently updated first, filtered and searched, refreshing every 5 s. */
export function ChatsView() {
  const [filters, setFilters] = useState<ChatFilters>({});
  const pages = useCursorPages();
  const cursor = pages.cursor;
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
    pages.reset();
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
      <LoadState query={chats} failure="Could not load chats" />
      <DataTable label="Chats" columns={COLUMNS} rows={page?.chats} rowKey={(c) => c.chat_id} empty="No chats match." />
      <Pager pages={pages} next={page?.next_cursor} />
    </>
  );
}
