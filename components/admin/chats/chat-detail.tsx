'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { formatDateTime } from '@/components/admin/lib/format';
import type { AdminChatDetail } from '@/contracts/schemas/admin-chat';
import { AppendMessage } from './append-message';
import { EventTimeline } from './event-timeline';
import { StatusBadge } from './status-badge';
import { Transcript } from './transcript';

function Facts({ chat }: { chat: AdminChatDetail }) {
  const rows: [string, ReactNode][] = [
    ['Status', <StatusBadge key="s" status={chat.status} />],
    ['Channel', chat.channel],
    ['Customer', `${chat.customer.name || '—'} (${chat.customer.destination_id})`],
    ['Asset', `${chat.asset.name} (#${chat.asset.id})`],
    ['Team', `${chat.team_name} (#${chat.team_id})`],
    ['Skill', chat.skill ?? '—'],
    ['Assignee', chat.assignee ?? '—'],
    ['Tags', chat.tag.length ? chat.tag.join(', ') : '—'],
    ['Alias ID', chat.alias_id ?? '—'],
    ['Flag', chat.flag ?? '—'],
    ['Created', formatDateTime(chat.created_at)],
    ['Updated', formatDateTime(chat.updated_at)],
  ];
  if (chat.subject) rows.push(['Subject', chat.subject]);
  if (chat.thread_id) rows.push(['Thread ID', chat.thread_id]);
  if (chat.browserfingerprint) rows.push(['Browser fingerprint', chat.browserfingerprint]);
  if (chat.outcome) rows.push(['Outcome', chat.outcome]);
  for (const [k, v] of Object.entries(chat.other_details)) rows.push([k, String(v)]);
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One chat: its details, transcript and every event with every delivery attempt, refreshed every 3 s. */
export function ChatDetail({ chatId }: { chatId: string }) {
  const query = tsr.chats.getChat.useQuery({
    queryKey: keys.chat(chatId),
    queryData: { params: { chat_id: chatId } },
    refetchInterval: 3_000,
  });
  const chat = query.data?.body.response;
  if (query.isPending) return <p className="muted">Loading…</p>;
  if (!chat) return <p className="form-error">Could not load the chat: {failureOf(query.error)?.description}</p>;
  return (
    <>
      <p className="small">
        <Link href="/admin/chats">← Chats</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>Chat with {chat.customer.name || chat.customer.destination_id}</h1>
          <p className="muted mono small">{chat.chat_id}</p>
        </div>
      </div>
      <div className="chat-layout">
        <div className="chat-main">
          <section className="card" aria-labelledby="transcript-title">
            <h2 id="transcript-title">Transcript ({chat.messages.length})</h2>
            <Transcript messages={chat.messages} />
          </section>
          <AppendMessage chatId={chat.chat_id} closed={chat.status === 'closed'} />
        </div>
        <section className="card chat-side" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <Facts chat={chat} />
        </section>
      </div>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Events and delivery attempts ({chat.events.length})</h2>
        <EventTimeline events={chat.events} chatId={chat.chat_id} assignee={chat.assignee} />
      </section>
    </>
  );
}
