import type { Message } from '@/contracts/schemas/message';
import { formatDateTime } from '@/lib/admin-ui/format';

const WHO: Record<Message['type'], string> = { inbound: 'Customer', outbound: 'To customer', announcement: 'Announcement' };

function Attachment({ a }: { a: NonNullable<Message['attachment']> }) {
  if (a.type === 'image') {
    return (
      <a href={a.url} target="_blank" rel="noreferrer noopener" className="attachment">
        {/* biome-ignore lint/performance/noImgElement: attachments are arbitrary external URLs, not optimisable assets */}
        <img src={a.url} alt="Attachment sent in the chat" loading="lazy" />
      </a>
    );
  }
  return (
    <a href={a.url} target="_blank" rel="noreferrer noopener" className="attachment attachment-file">
      {a.type} attachment: {a.url.split('/').pop() || a.url}
    </a>
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

/** The whole transcript: customer messages left, replies right, announcements across. */
export function Transcript({ messages }: { messages: Message[] }) {
  if (!messages.length) return <p className="muted">No messages yet.</p>;
  return (
    <ol className="transcript" aria-label="Transcript">
      {messages.map((m) => (
        <li key={m.transid} className={`msg msg-${m.type}`} data-type={m.type}>
          <div className="msg-head">
            <span className="msg-who">{WHO[m.type]}</span>
            {m.author && <span className="muted small mono">{m.author}</span>}
            <time className="muted small" dateTime={m.timestamp}>
              {formatDateTime(m.timestamp)}
            </time>
          </div>
          {m.text && <p className="msg-text">{m.text}</p>}
          <Extras m={m} />
          <div className="msg-foot muted small mono" title="transid">
            {m.transid}
          </div>
        </li>
      ))}
    </ol>
  );
}
