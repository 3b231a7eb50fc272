import { formatDateTime } from '@/components/admin/shared/format';
import { CopyId } from '@/components/admin/traces/copy-id';
import type { Message } from '@/contracts/bot/schemas/message';

const WHO: Record<Message['type'], string> = { inbound: 'Customer', outbound: 'To customer', announcement: 'Announcement' };

/** The URL if it is a web address (http or https); anything else (javascript:, data:, file:) is never a link. */
function webUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** The last path segment, decoded when it decodes (a stored `%E0%A4%A` must not take the page down), else the host. */
function fileName(url: URL): string {
  const last = url.pathname.split('/').pop() || '';
  try {
    return decodeURIComponent(last) || url.hostname;
  } catch {
    return last || url.hostname;
  }
}

/**
 * An attachment as a link, never loaded by the page: bots and customers send arbitrary URLs, and
 * fetching them from an admin's browser would leak the visit and show unchecked content.
 */
function Attachment({ a }: { a: NonNullable<Message['attachment']> }) {
  const url = webUrl(a.url);
  const name = url ? fileName(url) : '';
  if (!url) {
    return (
      <p className="attachment attachment-file">
        {a.type} attachment, not a web address (not opened):{' '}
        <span className="mono truncate" title={a.url}>
          {a.url.slice(0, 80)}
        </span>
      </p>
    );
  }
  return (
    <p className="attachment attachment-file">
      <a href={url.href} target="_blank" rel="noreferrer noopener nofollow">
        {a.type} attachment: {name}
      </a>{' '}
      <span className="muted small">({url.hostname}, opens in a new tab)</span>
    </p>
  );
}

/** What a message carries besides text, each shown as what it is. */
function Extras({ m }: { m: Message }) {
  return (
    <>
      {m.attachment && <Attachment a={m.attachment} />}
      {m.template_name && (
        <p className="msg-extra">
          <span className="badge">template</span> <code>{m.template_name}</code>
          {m.messenger_sub_type === 'hsm' && <span className="muted small"> (HSM)</span>}
        </p>
      )}
      {m.quick_replies && (
        <div className="msg-extra">
          <span className="muted small">Quick replies:</span>
          <div>
            {m.quick_replies.options.map((o) => (
              <span key={`${o.title}-${o.payload}`} className="quick-reply" title={`payload: ${o.payload}`}>
                {o.title}
              </span>
            ))}
          </div>
        </div>
      )}
      {m.quick_reply_response && (
        <p className="msg-extra">
          <span className="badge">quick reply answer</span> {m.quick_reply_response.options.map((o) => o.title).join(', ')}
        </p>
      )}
      {m.list_picker_response && (
        <p className="msg-extra">
          <span className="badge">list picker answer</span> {m.list_picker_response.join(', ')}
        </p>
      )}
      {m.time_picker_response && (
        <p className="msg-extra">
          <span className="badge">time picker answer</span> {formatDateTime(m.time_picker_response)}
        </p>
      )}
      {m.wab_interactive_response && (
        <p className="msg-extra">
          <span className="badge">template answer</span> {m.wab_interactive_response.title}
        </p>
      )}
    </>
  );
}

/** The whole transcript: customer messages left, replies right, announcements across; `highlight` marks a transid. */
export function Transcript({ messages, highlight }: { messages: Message[]; highlight?: string }) {
  if (!messages.length) return <p className="muted">No messages yet.</p>;
  return (
    <ol className="transcript" aria-label="Transcript">
      {messages.map((m) => (
        <li
          key={m.transid}
          id={`message-${m.transid}`}
          className={`msg msg-${m.type}${m.transid === highlight ? ' trace-highlight' : ''}`}
          aria-current={m.transid === highlight ? 'true' : undefined}
          data-type={m.type}
          data-transid={m.transid}
        >
          <div className="msg-head">
            <span className="msg-who">{WHO[m.type]}</span>
            {m.author && <span className="muted small mono">{m.author}</span>}
            <time className="muted small" dateTime={m.timestamp}>
              {formatDateTime(m.timestamp)}
            </time>
          </div>
          {m.text && <p className="msg-text">{m.text}</p>}
          {m.stream_state && m.stream_state !== 'closed' ? (
            <p className="small" data-testid="stream-state">
              <strong>{m.stream_state === 'open' ? 'Streaming…' : m.stream_state === 'superseded' ? 'Superseded' : 'Cut short'}</strong>{' '}
              {m.stream_state === 'open'
                ? `(${m.stream_seq ?? 0} chunks so far)`
                : m.stream_state === 'superseded'
                  ? '(the customer wrote again, or a person took over: withdrawn from the customer)'
                  : '(no chunk came in time, or the chat left the VA; the text is what had arrived)'}
            </p>
          ) : null}
          {m.turn_id || m.in_reply_to_turn ? (
            <p className="small muted" data-testid="turn">
              {m.turn_id ? (
                <>
                  Turn <span className="mono">{m.turn_id.slice(-8)}</span>
                </>
              ) : (
                <>
                  Reply to turn <span className="mono">{m.in_reply_to_turn?.slice(-8)}</span>
                  {m.stale ? <strong> · stale (the customer had written since)</strong> : null}
                </>
              )}
            </p>
          ) : null}
          <Extras m={m} />
          <div className="msg-foot muted small">
            transid <CopyId value={m.transid} label="transid" />
          </div>
        </li>
      ))}
    </ol>
  );
}
