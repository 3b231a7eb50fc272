'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { tsr } from '@/components/admin/shared/client';
import { formatDateTime } from '@/components/admin/shared/format';
import { failureOf } from '@/components/shared/errors';
import type { TraceMatch } from '@/contracts/admin/schemas/trace';
import { RecordingNote } from './recording-note';

const KIND: Record<TraceMatch['kind'], string> = {
  chat: 'Chat ID',
  alias_id: 'Alias ID',
  message: 'Message transid',
  event: 'Event transaction_id (webhook-id)',
  request: 'REST trxid',
  idempotency_key: 'Idempotency-Key',
};

/**
 * What an id is: with one match the page goes straight to it (the chat scrolled to the message,
 * event or request); with several it lists them; with none it says so.
 */
export function TraceView({ id }: { id: string }) {
  const router = useRouter();
  const query = tsr.traces.findTrace.useQuery({
    queryKey: ['trace', id],
    queryData: { query: { id } },
    enabled: id.length > 0,
    retry: false,
  });
  const matches = query.data?.body.response.matches;
  const only = matches?.length === 1 ? matches[0] : undefined;
  useEffect(() => {
    if (only) router.replace(only.link);
  }, [only, router]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Find by id</h1>
          <p className="muted mono small">{id || 'No id given'}</p>
        </div>
      </div>
      {!id && <p className="muted">Type an id into “Find by id” at the top of the page.</p>}
      {id && query.isPending && <p className="muted">Looking…</p>}
      {query.error && (
        <p className="form-error" role="alert">
          Could not look it up: {failureOf(query.error)?.description}
        </p>
      )}
      {matches?.length === 0 && (
        <p className="form-error" role="alert">
          Nothing of this account has this id: no chat, alias ID, message, event, request or Idempotency-Key.
        </p>
      )}
      {matches?.length === 0 && <RecordingNote recording={query.data?.body.response.recording} search />}
      {only && <p className="muted">Found: {KIND[only.kind]}. Opening it…</p>}
      {matches && matches.length > 1 && (
        <section className="card" aria-labelledby="trace-matches">
          <h2 id="trace-matches">This id names {matches.length} things</h2>
          <ul className="trace-matches">
            {matches.map((m) => (
              <li key={`${m.kind}-${m.chat_id}-${m.event_id}-${m.request_id}`}>
                <span className="badge">{KIND[m.kind]}</span> <Link href={m.link}>{m.summary}</Link>
                {m.at && <span className="muted small"> · {formatDateTime(m.at)}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
