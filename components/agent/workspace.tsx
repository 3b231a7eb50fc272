'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import { ApprovalsPanel } from './approvals-panel';
import { isSignedOut, keys, type Profile, tsr } from './client';
import { Conversation } from './conversation';
import { useLiveStream } from './live';
import { SignInForm } from './sign-in';

const REASONS: Record<string, string> = {
  new: 'new chat',
  transfer: 'transferred',
  requeued: 'returned to the queue',
  reply_timeout: 'the bot did not reply in time',
  bot_down: 'the bot is down',
  person_request: 'the customer asked for a person',
};

function waited(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** /agent: sign-in, or the workspace of the signed-in person. */
export function AgentApp() {
  // While its last read failed (503 in an outage), it is read again every 5 s.
  const me = tsr.session.me.useQuery({ queryKey: keys.me, refetchInterval: (q) => (q.state.error ? 5_000 : false) });
  if (me.isPending) return <p className="agent-loading">Loading…</p>;
  if (me.error && isSignedOut(me.error)) return <SignInForm />;
  // A read that failed for a moment keeps the workspace it showed, and its live view.
  if (me.data) return <Workspace me={me.data.body.response} />;
  return <p role="alert">The workspace could not load: {failureOf(me.error)?.description} Trying again…</p>;
}

function Workspace({ me }: { me: Profile }) {
  const qc = useQueryClient();
  const tsrQc = tsr.useQueryClient();
  const lists = tsr.chats.lists.useQuery({ queryKey: keys.lists });
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const connected = useLiveStream(open);
  const queue = lists.data?.body.response.queue ?? [];
  const mine = lists.data?.body.response.mine ?? [];
  const unread = queue.length + mine.filter((m) => m.awaiting_reply).length;

  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) Agent workspace · VA Chat` : 'Agent workspace · VA Chat';
  }, [unread]);

  const openChat = useCallback((id: string) => {
    setOpen(id);
    setNotice(null);
    focusId('conversation-title');
  }, []);

  /** The next chat: the first of mine awaiting a reply, else the oldest in the queue, else the first of mine. */
  const nextChat = useCallback(() => {
    const target = mine.find((m) => m.awaiting_reply && m.chat_id !== open)?.chat_id ?? queue[0]?.chat_id ?? mine[0]?.chat_id;
    if (target) openChat(target);
    else setNotice('No chat is waiting.');
  }, [mine, queue, open, openChat]);

  const setAvailability = tsr.session.setAvailability.useMutation({
    onSuccess: (res) => tsrQc.session.me.setQueryData(keys.me, res),
    onError: (err) => setNotice(`Availability not changed: ${failureOf(err)?.description}`),
  });
  const availability = () =>
    setAvailability.mutate({ body: { availability: me.availability === 'available' ? 'unavailable' : 'available' } });
  const logout = tsr.session.logout.useMutation({ onSettled: () => window.location.replace('/agent') });
  const signOut = () => logout.mutate({});

  // Shortcuts: Alt+N next chat, Alt+R reply, Alt+C close (by key position, so any layout works).
  const closeRef = useRef<() => void>(() => {});
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.code === 'KeyN') {
        e.preventDefault();
        nextChat();
      } else if (e.code === 'KeyR') {
        e.preventDefault();
        const reply = document.getElementById('reply-text');
        if (reply) reply.focus();
        else setNotice('Open a chat you hold to reply.');
      } else if (e.code === 'KeyC') {
        e.preventDefault();
        closeRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [nextChat]);

  const afterLeaving = useCallback(
    (message: string) => {
      setOpen(null);
      setNotice(message);
      qc.invalidateQueries({ queryKey: keys.lists });
      focusId('workspace-notice');
    },
    [qc],
  );

  return (
    <div className="agent-shell">
      <header className="agent-header">
        <h1>Agent workspace</h1>
        <div className="agent-me">
          <span>
            {me.login_id} <span className="muted small">({me.teams.map((t) => t.name).join(', ') || 'no team'})</span>
          </span>
          {/* A labelled switch, drawn as one: a button reading "Available" alone read as a label. */}
          <span id="availability-label">Available for chats</span>
          <button
            type="button"
            id="availability"
            role="switch"
            aria-checked={me.availability === 'available'}
            aria-labelledby="availability-label"
            className={`switch${me.availability === 'available' ? ' switch-on' : ''}`}
            onClick={availability}
          >
            <span className="switch-knob" aria-hidden="true" />
            <span className="switch-text">{me.availability === 'available' ? 'On' : 'Off (away)'}</span>
          </button>
          <button type="button" className="btn btn-small" onClick={signOut}>
            Sign out
          </button>
        </div>
        <p className="shortcuts small muted" id="shortcuts">
          Shortcuts: <kbd>Alt</kbd>+<kbd>N</kbd> next chat · <kbd>Alt</kbd>+<kbd>R</kbd> reply · <kbd>Alt</kbd>+<kbd>C</kbd> close the chat
          {connected ? '' : ' · reconnecting…'}
        </p>
      </header>

      <div id="workspace-notice" className="notice" role="status" tabIndex={-1}>
        {notice}
      </div>
      <div className="agent-columns">
        <nav className="agent-lists" aria-label="Chats">
          <section aria-labelledby="mine-title">
            <h2 id="mine-title" tabIndex={-1}>
              Mine <span className="count">({mine.length})</span>
            </h2>
            {mine.length === 0 ? (
              <p className="muted small">No chats assigned to you.</p>
            ) : (
              <ul className="chat-list">
                {mine.map((m) => (
                  <li key={m.chat_id}>
                    <button
                      type="button"
                      id={`mine-${m.chat_id}`}
                      className="chat-item"
                      aria-current={open === m.chat_id ? 'true' : undefined}
                      onClick={() => openChat(m.chat_id)}
                    >
                      <span className="who">{m.customer_name ?? m.destination_id}</span>
                      <span className="small muted">
                        {m.channel}
                        {m.status === 'onhold' ? ' · on hold' : ''}
                      </span>
                      {m.awaiting_reply && <span className="badge badge-warn">awaiting your reply</span>}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="queue-title">
            <h2 id="queue-title" tabIndex={-1}>
              Queue <span className="count">({queue.length})</span>
            </h2>
            {queue.length === 0 ? (
              <p className="muted small">Nobody is waiting.</p>
            ) : (
              <ol className="chat-list">
                {queue.map((q) => (
                  <li key={q.chat_id}>
                    <button
                      type="button"
                      id={`queue-${q.chat_id}`}
                      className="chat-item"
                      aria-current={open === q.chat_id ? 'true' : undefined}
                      onClick={() => openChat(q.chat_id)}
                    >
                      <span className="who">{q.customer_name ?? q.destination_id}</span>
                      <span className="small muted">
                        {q.team_name}
                        {q.skill ? ` / ${q.skill}` : ''} · {q.channel}
                      </span>
                      <span className="small">
                        waiting {waited(q.waited_seconds)} · {REASONS[q.reason]}
                      </span>
                      {q.handover && (
                        <span className="small muted">
                          from {q.handover.from}: {q.handover.reason ?? q.handover.intent ?? 'handed over'}
                        </span>
                      )}
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <ApprovalsPanel approvals={lists.data?.body.response.approvals ?? []} onOpen={openChat} />
        </nav>
        <main className="agent-main" aria-labelledby={open ? 'conversation-title' : 'no-chat-title'}>
          {open ? (
            <Conversation chatId={open} me={me} closeRef={closeRef} onLeft={afterLeaving} onNotice={setNotice} />
          ) : (
            <div className="empty-conversation">
              <h2 id="no-chat-title">No chat open</h2>
              <p className="muted">Pick a chat from Mine or the Queue, or press Alt+N for the next one.</p>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
