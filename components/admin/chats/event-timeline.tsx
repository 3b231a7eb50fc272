'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatDateTime, formatMs } from '@/components/admin/shared/format';
import { TableRegion } from '@/components/admin/table-region';
import { useToast } from '@/components/admin/toast';
import { CopyId } from '@/components/admin/traces/copy-id';
import { failureOf } from '@/components/shared/errors';
import type { AdminEvent } from '@/contracts/admin/schemas/chat';
import { StatusBadge } from './status-badge';

/** The message trace IDs an event carried, as the bot was told to keep them. */
function transidsOf(e: AdminEvent): string[] {
  // An entry's own transid traces the event (it equals transaction_id); the message's is inside it.
  const messages = (e.body.payload as { messages?: { transid?: string; message?: { transid?: string } }[] } | undefined)?.messages ?? [];
  return messages.map((m) => m.message?.transid ?? m.transid).filter((t): t is string => typeof t === 'string');
}

/**
 * Redeliver, asking first when the event's VA no longer holds the chat (the API answers 3010
 * without `force`): a bot would be told about a chat that is not its own.
 */
function Redeliver({ event, chatId, assignee }: { event: AdminEvent; chatId: string; assignee: string | null }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  const redeliver = tsr.events.redeliverEvent.useMutation({
    onSuccess: () => {
      toast.success(`Event #${event.seq} ${event.event_type} queued for delivery again.`);
      qc.invalidateQueries({ queryKey: keys.chat(chatId) });
    },
    onError: (err) => toast.error(`Not redelivered: ${failureOf(err)?.description}`),
  });
  const aboutLeaving = event.event_type === 'chat.unassigned' || event.event_type === 'chat.closed';
  const notHeld = !aboutLeaving && assignee !== event.virtual_agent_login_id;
  // The button stays while the event is pending again, so focus stays on it; it only refuses.
  const waiting = redeliver.isPending || event.status === 'pending';
  const send = (force: boolean) => redeliver.mutate({ params: { id: event.id }, query: force ? { force: 'true' } : {} });
  if (asking) {
    const id = `redeliver-warning-${event.id}`;
    return (
      <fieldset className="confirm" onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
        <legend className="sr-only">Confirm: redeliver event {event.seq}</legend>
        <p className="small" id={id}>
          The chat is no longer assigned to {event.virtual_agent_login_id}. Send this event to it anyway?
        </p>
        <div className="row">
          <button
            ref={confirm}
            type="button"
            className="btn btn-small btn-danger"
            aria-describedby={id}
            onClick={() => {
              setAsking(false);
              send(true);
            }}
          >
            Redeliver anyway
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              setAsking(false);
              requestAnimationFrame(() => opener.current?.focus());
            }}
          >
            Cancel
          </button>
        </div>
      </fieldset>
    );
  }
  return (
    <button
      ref={opener}
      type="button"
      className="btn btn-small"
      aria-disabled={waiting || undefined}
      aria-busy={redeliver.isPending || undefined}
      onClick={() => {
        if (waiting) return;
        if (notHeld) setAsking(true);
        else send(false);
      }}
    >
      {redeliver.isPending ? 'Redelivering…' : event.status === 'pending' ? 'Delivering…' : notHeld ? 'Redeliver…' : 'Redeliver'}
      <span className="sr-only"> event {event.seq}</span>
    </button>
  );
}

/** Every event of the chat, in order, with every delivery attempt; `highlight` marks an event id. */
export function EventTimeline({
  events,
  chatId,
  assignee,
  highlight,
}: {
  events: AdminEvent[];
  chatId: string;
  assignee: string | null;
  highlight?: number;
}) {
  if (!events.length) return <p className="muted">No events: the chat was never assigned to a Virtual Agent.</p>;
  return (
    <ol className="timeline" aria-label="Events">
      {events.map((e) => {
        const transids = transidsOf(e);
        return (
          <li
            key={e.id}
            id={`event-${e.id}`}
            className={`event event-${e.status}${e.id === highlight ? ' trace-highlight' : ''}`}
            aria-current={e.id === highlight ? 'true' : undefined}
            data-testid="event"
            data-status={e.status}
            data-event-type={e.event_type}
            data-transaction-id={e.transaction_id}
          >
            <div className="event-head">
              <strong>
                #{e.seq} <code>{e.event_type}</code>
              </strong>
              <StatusBadge status={e.status} />
              <span className="muted small">to {e.virtual_agent_login_id}</span>
              <span className="event-actions">
                <Redeliver event={e} chatId={chatId} assignee={assignee} />
              </span>
            </div>
            <dl className="facts small">
              <dt>transaction_id</dt>
              <dd>
                <CopyId value={e.transaction_id} label={`transaction_id of event ${e.seq}`} />
              </dd>
              {transids.length > 0 && (
                <>
                  <dt>message transid</dt>
                  <dd className="mono">{transids.join(', ')}</dd>
                </>
              )}
              <dt>Created</dt>
              <dd>{formatDateTime(e.created_at)}</dd>
              {e.status === 'pending' && e.attempt_count > 0 && (
                <>
                  <dt>Next attempt</dt>
                  <dd>{formatDateTime(e.next_attempt_at)}</dd>
                </>
              )}
              {e.delivered_at && (
                <>
                  <dt>Delivered</dt>
                  <dd>{formatDateTime(e.delivered_at)}</dd>
                </>
              )}
              {e.turn?.held_until && (
                <>
                  <dt>Held for its turn window</dt>
                  <dd data-testid="turn-held">
                    until {formatDateTime(e.turn.held_until)} at the latest (sooner when the customer stops typing): the customer may still
                    be writing
                  </dd>
                </>
              )}
              {e.turn && e.turn.held_ms !== null && (
                <>
                  <dt>Turn window</dt>
                  <dd>
                    held {e.turn.held_ms} ms, closed by {e.turn.closed_by ?? 'window'};{' '}
                    {(e.body.payload as { messages?: unknown[] } | undefined)?.messages?.length ?? 1} message(s)
                  </dd>
                </>
              )}
              {e.superseded_at && (
                <>
                  <dt>Superseded</dt>
                  <dd>
                    {formatDateTime(e.superseded_at)}:{' '}
                    {e.attempts.length === 0
                      ? 'the chat left the Virtual Agent before it was sent; not sent'
                      : 'the chat left the Virtual Agent before it was delivered; not sent again'}
                  </dd>
                </>
              )}
              {e.failed_at && (
                <>
                  <dt>Failed for good</dt>
                  <dd>{formatDateTime(e.failed_at)}</dd>
                </>
              )}
            </dl>
            {e.attempts.length === 0 ? (
              <p className="muted small">No attempts yet.</p>
            ) : (
              <TableRegion className="attempts" label={`Delivery attempts of event ${e.seq}`}>
                <table>
                  <caption className="sr-only">Delivery attempts of event {e.seq}</caption>
                  <thead>
                    <tr>
                      <th className="num">#</th>
                      <th>Time</th>
                      <th>Result</th>
                      <th className="num">Latency</th>
                      <th>Response</th>
                    </tr>
                  </thead>
                  <tbody>
                    {e.attempts.map((a) => (
                      <tr key={a.attempt_number} data-testid="attempt">
                        <td className="num">{a.attempt_number}</td>
                        <td className="small">{formatDateTime(a.started_at)}</td>
                        <td>
                          {a.http_status === 200 ? (
                            <span className="badge badge-ok">HTTP 200</span>
                          ) : a.http_status !== null ? (
                            <span className="badge badge-bad">HTTP {a.http_status}</span>
                          ) : (
                            <span className="badge badge-bad">no answer</span>
                          )}
                          {a.error && <div className="small">{a.error}</div>}
                        </td>
                        <td className="num small">{formatMs(a.duration_ms)}</td>
                        <td className="mono small excerpt">{a.response_excerpt || <span className="muted">(empty)</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            )}
            <details className="small">
              <summary>Event body</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide block scrolls sideways, so the keyboard must reach it */}
              <section className="json" tabIndex={0} aria-label={`Body of event ${e.seq}`}>
                <pre>{JSON.stringify(e.body, null, 2)}</pre>
              </section>
            </details>
          </li>
        );
      })}
    </ol>
  );
}
