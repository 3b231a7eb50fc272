'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type ReactNode, useEffect } from 'react';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatDateTime } from '@/components/admin/shared/format';
import { ChatRequests } from '@/components/admin/traces/chat-requests';
import { CopyId } from '@/components/admin/traces/copy-id';
// The card is the contract's handover card, drawn the same way for people in the workspace and here.
import { HandoverCard } from '@/components/agent/handover-card';
import { openLiveSource } from '@/components/live/live-source';
import { applyInOrder, withChunk, withMessage } from '@/components/live/transcript';
import { failureOf } from '@/components/shared/errors';
import { focusWhenReady } from '@/components/shared/focus';
import type { AdminChatDetail } from '@/contracts/admin/schemas/chat';
import type { Message, TranscriptChunk } from '@/contracts/bot/schemas/message';
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
    [
      'Typing',
      chat.typing ? (
        <span key="t" data-testid="chat-typing">
          on until {formatDateTime(chat.typing.expires_at)}
          {chat.typing.status_text ? `: ${chat.typing.status_text}` : ''}
        </span>
      ) : (
        'off'
      ),
    ],
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

/** A trace link's target: `message:<transid>`, `event:<id>` or `request:<trxid>`, and its element id. */
function focusTarget(focus: string | undefined) {
  const m = /^(message|event|request):(.+)$/.exec(focus ?? '');
  return m ? { kind: m[1] as 'message' | 'event' | 'request', value: m[2], elementId: `${m[1]}-${m[2]}` } : null;
}

/**
 * One chat: its details, transcript, every event with every delivery attempt and the bot's
 * requests about it. It follows the chat live (messages, typing, a streamed reply growing) through
 * the admin chat stream, which sends the changes themselves (Server-Sent Events on the chat's realtime topic); the delivery attempts,
 * which are not changes of the chat, are read again every 3 s while an event is pending. With `focus` (a trace link), that message, event or
 * request is highlighted and scrolled to once it is on the page.
 */
export function ChatDetail({ chatId, focus }: { chatId: string; focus?: string }) {
  const target = focusTarget(focus);
  const elementId = target?.elementId;
  useEffect(() => {
    if (!elementId) return;
    // A page change also focuses the page heading (the shell) in the frame the chat appears: the
    // target takes focus one frame later, so it ends up focused and in view.
    focusWhenReady(
      () => document.getElementById(elementId),
      (el) =>
        requestAnimationFrame(() => {
          el.focus({ preventScroll: true });
          el.scrollIntoView({ block: 'center' });
        }),
    );
  }, [elementId]);
  const qc = useQueryClient();
  const query = tsr.chats.getChat.useQuery({
    queryKey: keys.chat(chatId),
    queryData: { params: { chat_id: chatId } },
    // Changes of the chat come through the live stream below. Delivery attempts are not changes of
    // the chat: while an event is still being delivered they are read every 3 s, then not at all.
    refetchInterval: (q) => (q.state.data?.body.response.events.some((e) => e.status === 'pending') ? 3_000 : false),
  });
  // Held, not "the last read succeeded": a read that failed for a moment (503 in an outage, a
  // refetch when the window regains focus) must not close the live stream the page follows.
  const loaded = query.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    // The stream sends the chat's changes (the whole chat first), applied to the cached answer
    // without a read. EventSource reconnects by itself and resumes from the last id it got; one it
    // gave up on (an answer that was no stream: 503 in an outage) is opened again, whole.
    type Cached = NonNullable<typeof query.data>;
    const change = applyInOrder<Cached>(qc, keys.chat(chatId));
    const onResponse = (update: (chat: AdminChatDetail) => AdminChatDetail) =>
      change((old) => ({ ...old, body: { ...old.body, response: update(old.body.response) } }));
    const parse = <T,>(e: Event) => JSON.parse((e as MessageEvent<string>).data) as T;
    return openLiveSource(`/api/admin/chats/${encodeURIComponent(chatId)}/stream`, (source) => {
      source.addEventListener('chat', (e) => {
        const response = parse<AdminChatDetail>(e);
        onResponse(() => response);
      });
      source.addEventListener('message', (e) => {
        const message = parse<Message>(e);
        onResponse((chat) => ({ ...chat, messages: withMessage(chat.messages, message) }));
      });
      source.addEventListener('chunk', (e) => {
        const chunk = parse<TranscriptChunk>(e);
        onResponse((chat) => ({ ...chat, messages: withChunk(chat.messages, chunk) }));
      });
      source.addEventListener('details', (e) => {
        const details = parse<Omit<AdminChatDetail, 'messages'>>(e);
        onResponse((chat) => ({ ...chat, ...details }));
      });
    });
  }, [chatId, loaded, qc]);
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
          <p className="muted small">
            <CopyId value={chat.chat_id} label="chat ID" />
          </p>
        </div>
      </div>
      <div className="chat-layout">
        <div className="chat-main">
          {chat.handover && <HandoverCard card={chat.handover} headingLevel={2} />}
          <section className="card" aria-labelledby="transcript-title">
            <h2 id="transcript-title">Transcript ({chat.messages.length})</h2>
            <Transcript messages={chat.messages} highlight={target?.kind === 'message' ? target.value : undefined} />
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
        <EventTimeline
          events={chat.events}
          chatId={chat.chat_id}
          assignee={chat.assignee}
          highlight={target?.kind === 'event' ? Number(target.value) : undefined}
        />
      </section>
      <ChatRequests chatId={chat.chat_id} highlight={target?.kind === 'request' ? target.value : undefined} />
    </>
  );
}
