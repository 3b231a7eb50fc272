'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type MutableRefObject, useEffect, useRef, useState } from 'react';
import { failureOf } from '@/components/shared/errors';
import { focusAfterAction, focusId } from '@/components/shared/focus';
import { keys, type Message, type Profile, tsr } from './client';
import { HandBack, HandoverCard } from './handover-card';

type ReplyBody = NonNullable<Parameters<typeof tsr.chats.reply.mutate>[0]['body']>;
type TransferBody = NonNullable<Parameters<typeof tsr.chats.transfer.mutate>[0]['body']>;

/** Only http and https addresses become links: a stored value of any other kind is shown as text. */
function isWebAddress(raw: string): boolean {
  try {
    const { protocol } = new URL(raw);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function authorOf(m: Message): string {
  if (m.type === 'inbound') return 'Customer';
  if (m.type === 'announcement') return m.author ? `Internal note · ${m.author}` : 'Internal note';
  return m.author ?? 'Service';
}

export function MessageItem({ m }: { m: Message }) {
  return (
    <li className={`msg msg-${m.type}`}>
      <div className="msg-meta small">
        <span className="msg-author">{authorOf(m)}</span>{' '}
        <time dateTime={m.timestamp} className="muted">
          {new Date(m.timestamp).toLocaleTimeString()}
        </time>
        {m.stream_state === 'open' && <span className="muted"> · writing…</span>}
        {m.stream_state === 'superseded' && <span className="muted"> · withdrawn (the customer wrote again, or a person took over)</span>}
        {m.turn_id && <span className="muted"> · turn {m.turn_id.slice(-8)}</span>}
        {m.in_reply_to_turn && <span className="muted"> · reply to turn {m.in_reply_to_turn.slice(-8)}</span>}
        {m.stale && <span className="muted"> · stale</span>}
      </div>
      {m.text && <p className="msg-text">{m.text}</p>}
      {m.attachment && (
        <p className="msg-text">
          Attachment ({m.attachment.type}):{' '}
          {isWebAddress(m.attachment.url) ? (
            <a href={m.attachment.url} target="_blank" rel="noopener noreferrer">
              {m.attachment.url}
            </a>
          ) : (
            <span>{m.attachment.url.slice(0, 200)} (not a web address, not opened)</span>
          )}
        </p>
      )}
      {m.quick_replies && <p className="small muted">Quick replies offered: {m.quick_replies.options.map((o) => o.title).join(', ')}</p>}
      {m.quick_reply_response && <p className="small muted">Chose: {m.quick_reply_response.options.map((o) => o.title).join(', ')}</p>}
    </li>
  );
}

/**
 * One chat: who holds it, the customer, tags, the transcript (the bot's messages and the internal
 * notes included), and the actions the person may take. Every action keeps focus somewhere
 * meaningful: the reply box after a reply, the lists' notice after the chat leaves them.
 */
export function Conversation({
  chatId,
  me,
  closeRef,
  onLeft,
  onNotice,
}: {
  chatId: string;
  me: Profile;
  closeRef: MutableRefObject<() => void>;
  onLeft: (message: string) => void;
  onNotice: (message: string | null) => void;
}) {
  const qc = useQueryClient();
  const params = { chat_id: chatId };
  const view = tsr.chats.getChat.useQuery({ queryKey: keys.chat(chatId), queryData: { params } });
  const directory = tsr.directory.directory.useQuery({ queryKey: keys.directory, staleTime: 60_000 });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const data = view.data?.body.response;
  const mineNow = data?.chat.assignee === me.login_id && data.chat.status !== 'closed';

  const fail = (err: unknown, focus: (id: string) => void) => {
    setError(failureOf(err)?.description ?? null);
    focus('conversation-error');
  };
  /**
   * One action of the person's. `leaves`: the chat leaves this person (transferred, handed back,
   * closed): it is not read again, since it may now be outside their teams (2085). A refusal (any
   * answer but 2xx) is thrown and shown. `after` gets the focus mover for the action's end: it
   * leaves focus alone if the person has gone on to another field meanwhile.
   */
  const act = async (work: () => Promise<{ status: number }>, after?: (focus: (id: string) => void) => void, { leaves = false } = {}) => {
    const focus = focusAfterAction();
    setBusy(true);
    setError(null);
    try {
      const res = await work();
      if (res.status < 200 || res.status > 299) throw res;
      if (leaves) {
        await qc.cancelQueries({ queryKey: keys.chat(chatId) });
        qc.invalidateQueries({ queryKey: keys.lists });
        after?.(focus);
        qc.removeQueries({ queryKey: keys.chat(chatId), exact: true });
        return;
      }
      await qc.invalidateQueries({ queryKey: keys.chat(chatId) });
      qc.invalidateQueries({ queryKey: keys.lists });
      after?.(focus);
    } catch (err) {
      qc.invalidateQueries({ queryKey: keys.chat(chatId) });
      fail(err, focus);
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (!mineNow) {
      onNotice('Only a chat you hold can be closed.');
      focusId('workspace-notice');
      return;
    }
    void act(
      () => tsr.chats.close.mutate({ params, body: {} }),
      () => onLeft('Chat closed.'),
      { leaves: true },
    );
  };
  useEffect(() => {
    closeRef.current = close;
  });

  // The transcript follows its newest message when one arrives, unless the person has scrolled up
  // to read history (then it stays where they are); the person's own message is always shown.
  const log = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const sent = useRef(false);
  const count = data?.transcript.length ?? 0;
  useEffect(() => {
    const el = log.current;
    if (!el || count === 0) return;
    if (atEnd.current || sent.current) el.scrollTop = el.scrollHeight;
    sent.current = false;
  }, [count]);

  if (view.isPending) return <p>Loading the chat…</p>;
  if (view.error || !data) {
    return (
      <div>
        <h2 id="conversation-title" tabIndex={-1}>
          Chat not available
        </h2>
        <p role="alert">{failureOf(view.error)?.description ?? 'The chat could not load.'}</p>
      </div>
    );
  }
  const { chat } = data;
  const holder =
    chat.status === 'closed'
      ? 'Closed'
      : chat.assignee === null
        ? 'Waiting in the queue'
        : chat.assignee === me.login_id
          ? 'Assigned to you'
          : `Held by ${chat.assignee}${data.assignee_kind === 'virtual_agent' ? ' (virtual agent)' : ''}`;
  const canPick = chat.status !== 'closed' && (chat.assignee === null || data.assignee_kind === 'virtual_agent');

  const submitReply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = new FormData(form);
    const text = String(values.get('text') ?? '').trim();
    const url = String(values.get('attachment') ?? '').trim();
    const quick = String(values.get('quick') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const body: ReplyBody = {};
    if (text) body.text = text;
    if (url)
      body.attachment = { type: String(values.get('attachment_type') ?? 'file') as NonNullable<ReplyBody['attachment']>['type'], url };
    if (quick.length) body.quick_replies = quick;
    // Set before the send: the re-read that brings the message in may render before it returns.
    sent.current = true;
    void act(
      () => tsr.chats.reply.mutate({ params, body }),
      (focus) => {
        form.reset();
        focus('reply-text');
      },
    );
  };
  const submitNote = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    void act(
      () => tsr.chats.note.mutate({ params, body: { text: String(new FormData(form).get('note') ?? '') } }),
      (focus) => {
        form.reset();
        focus('note-text');
      },
    );
  };
  const submitTag = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const tag = String(new FormData(form).get('tag') ?? '').trim();
    if (!tag) return;
    void act(
      () => tsr.chats.tags.mutate({ params, body: { add_tags: [tag] } }),
      (focus) => {
        form.reset();
        focus('tag-input');
      },
    );
  };
  const removeTag = (tag: string) =>
    act(
      () => tsr.chats.tags.mutate({ params, body: { remove_tags: [tag] } }),
      (focus) => focus('tag-input'),
    );
  const submitTransfer = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const values = new FormData(e.currentTarget);
    const target = String(values.get('target') ?? '');
    const [kind, value] = [target.slice(0, target.indexOf(':')), target.slice(target.indexOf(':') + 1)];
    const skill = String(values.get('skill') ?? '');
    const body: TransferBody = kind === 'team' ? { team_id: Number(value), ...(skill && { skill_name: skill }) } : { assignee: value };
    void act(
      () => tsr.chats.transfer.mutate({ params, body }),
      () => onLeft(kind === 'team' ? 'Chat transferred to the team.' : `Chat handed to ${value}.`),
      { leaves: true },
    );
  };
  const pick = () =>
    act(
      () => tsr.chats.pick.mutate({ params }),
      (focus) => focus('reply-text'),
    );

  const teams = directory.data?.body.response.teams ?? [];
  const people = (directory.data?.body.response.users ?? []).filter((u) => u.login_id !== me.login_id);
  const details = Object.entries(chat.other_details ?? {});

  return (
    <article className="conversation" aria-busy={busy}>
      <h2 id="conversation-title" tabIndex={-1}>
        {chat.customer.name || chat.customer.destination_id} <span className="muted small">· {chat.channel}</span>
      </h2>
      <p className="holder">
        <strong>{holder}</strong> · team {chat.team_name}
        {chat.skill ? ` / ${chat.skill}` : ''}
      </p>
      <div id="conversation-error" className="form-error-slot" role="alert" tabIndex={-1}>
        {error}
      </div>
      {canPick && (
        <button type="button" id="pick-chat" className="btn btn-primary" disabled={busy} onClick={() => void pick()}>
          {chat.assignee === null ? 'Pick this chat' : 'Take over from the bot'}
        </button>
      )}
      {data.handover && <HandoverCard card={data.handover} />}
      <div className="conversation-grid">
        <section aria-labelledby="transcript-title" className="transcript-section">
          <h3 id="transcript-title">Transcript</h3>
          {/* The scrolling log is focusable so its history can be read by keyboard. */}
          <div
            ref={log}
            className="transcript"
            role="log"
            aria-label="Transcript"
            aria-live="polite"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
            tabIndex={0}
            onScroll={(e) => {
              const el = e.currentTarget;
              atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
            }}
          >
            <ol>
              {data.transcript.map((m) => (
                <MessageItem key={m.transid} m={m} />
              ))}
            </ol>
          </div>
          {chat.typing && (
            <p className="small muted" role="status">
              {chat.assignee} is typing{chat.typing.status_text ? `: ${chat.typing.status_text}` : '…'}
            </p>
          )}
          {mineNow && (
            <form className="reply-form" onSubmit={submitReply} aria-labelledby="reply-title">
              <h3 id="reply-title">Reply to the customer</h3>
              <div className="field">
                <label htmlFor="reply-text">Message</label>
                <textarea id="reply-text" name="text" rows={3} maxLength={4096} />
              </div>
              <details>
                <summary>Attachment or quick replies</summary>
                <div className="field">
                  <label htmlFor="reply-attachment">Attachment URL</label>
                  <input id="reply-attachment" name="attachment" type="url" inputMode="url" placeholder="https://…" />
                </div>
                <div className="field">
                  <label htmlFor="reply-attachment-type">Attachment type</label>
                  <select id="reply-attachment-type" name="attachment_type" defaultValue="image">
                    <option value="image">image</option>
                    <option value="file">file</option>
                    <option value="audio">audio</option>
                    <option value="video">video</option>
                  </select>
                </div>
                {chat.channel === 'livechat' && (
                  <div className="field">
                    <label htmlFor="reply-quick">Quick replies (comma separated)</label>
                    <input id="reply-quick" name="quick" type="text" />
                  </div>
                )}
              </details>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Send
              </button>
            </form>
          )}
        </section>
        <aside className="chat-side" aria-label="Chat details and actions">
          <section aria-labelledby="customer-title">
            <h3 id="customer-title">Customer</h3>
            <dl className="kv">
              <dt>Name</dt>
              <dd>{chat.customer.name || '—'}</dd>
              <dt>Address</dt>
              <dd className="mono">{chat.customer.destination_id}</dd>
              <dt>Started</dt>
              <dd>{new Date(chat.created_at).toLocaleString()}</dd>
              {details.map(([k, v]) => (
                <div key={k} className="kv-pair">
                  <dt>{k}</dt>
                  <dd>{String(v)}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="tags-title">
            <h3 id="tags-title">Tags</h3>
            {chat.tag.length === 0 ? (
              <p className="muted small">No tags.</p>
            ) : (
              <ul className="tags">
                {chat.tag.map((tag) => (
                  <li key={tag}>
                    <span className="badge">{tag}</span>
                    {mineNow && (
                      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void removeTag(tag)}>
                        Remove<span className="sr-only"> tag {tag}</span>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {mineNow && (
              <form onSubmit={submitTag} className="inline-form">
                <label htmlFor="tag-input">Add a tag</label>
                <input id="tag-input" name="tag" type="text" maxLength={100} />
                <button type="submit" className="btn btn-small" disabled={busy}>
                  Add
                </button>
              </form>
            )}
          </section>
          {chat.status !== 'closed' && (
            <section aria-labelledby="note-title">
              <h3 id="note-title">Internal note</h3>
              <form onSubmit={submitNote}>
                <div className="field">
                  <label htmlFor="note-text">Note (people and administrators only)</label>
                  <textarea id="note-text" name="note" rows={2} maxLength={4096} required />
                </div>
                <button type="submit" className="btn btn-small" disabled={busy}>
                  Add note
                </button>
              </form>
            </section>
          )}
          {mineNow && (
            <HandBack
              card={data.handover}
              busy={busy}
              onHandBack={(note) =>
                void act(
                  () => tsr.chats.handBack.mutate({ params, body: note ? { note } : {} }),
                  () => onLeft(`Chat handed back to ${data.handover?.from ?? 'the bot'}.`),
                  { leaves: true },
                )
              }
            />
          )}
          {mineNow && (
            <section aria-labelledby="transfer-title">
              <h3 id="transfer-title">Transfer</h3>
              <form onSubmit={submitTransfer}>
                <div className="field">
                  <label htmlFor="transfer-target">To</label>
                  <select id="transfer-target" name="target" required defaultValue="">
                    <option value="" disabled>
                      Choose a team, person or bot
                    </option>
                    <optgroup label="Teams (their queue)">
                      {teams.map((t) => (
                        <option key={t.id} value={`team:${t.id}`}>
                          {t.name}
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label="Back to a virtual agent">
                      {people
                        .filter((u) => u.kind === 'virtual_agent')
                        .map((u) => (
                          <option key={u.login_id} value={`user:${u.login_id}`}>
                            {u.name} ({u.login_id})
                          </option>
                        ))}
                    </optgroup>
                    <optgroup label="A person">
                      {people
                        .filter((u) => u.kind !== 'virtual_agent')
                        .map((u) => (
                          <option key={u.login_id} value={`user:${u.login_id}`}>
                            {u.name} ({u.login_id})
                          </option>
                        ))}
                    </optgroup>
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="transfer-skill">Skill (with a team, optional)</label>
                  <input id="transfer-skill" name="skill" type="text" maxLength={100} list="skill-names" />
                  <datalist id="skill-names">
                    {[...new Set(teams.flatMap((t) => t.skills))].map((s) => (
                      <option key={s} value={s} />
                    ))}
                  </datalist>
                </div>
                <button type="submit" className="btn" disabled={busy}>
                  Transfer
                </button>
              </form>
              <button type="button" id="close-chat" className="btn btn-danger" disabled={busy} onClick={close}>
                Close the chat
              </button>
            </section>
          )}
        </aside>
      </div>
    </article>
  );
}
