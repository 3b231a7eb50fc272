'use client';

import Link from 'next/link';
import { tsr } from '@/components/admin/shared/client';
import { formatDateTime } from '@/components/admin/shared/format';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';

/**
 * The VA's reply budget at work: the chats whose customer waits for the bot now (longest first)
 * and the times the budget ran out (handed over, or only counted). Refreshed every 10 s.
 */
export function RepliesCard({ va }: { va: AdminVirtualAgent }) {
  const replies = tsr.vaTools.getVaReplies.useQuery({
    queryKey: ['virtual-agents', va.id, 'replies'],
    queryData: { params: { id: va.id } },
    refetchInterval: 10_000,
  });
  const r = replies.data?.body.response;
  return (
    <section className="card" aria-labelledby="va-replies-title">
      <h2 id="va-replies-title">Replies</h2>
      <p className="small">
        Reply budget:{' '}
        {va.reply_timeout_seconds
          ? `${va.reply_timeout_seconds} s, then ${va.reply_timeout_action === 'handover' ? 'hand over to the fallback team' : 'count it only'}`
          : 'off'}
        .
      </p>
      {r ? (
        <>
          <p data-testid="waiting-on-bot">
            <strong>{r.waiting_count}</strong> {r.waiting_count === 1 ? 'chat is' : 'chats are'} waiting on the bot now. Reply timeouts in
            the last 24 hours: <strong>{r.timeouts_24h.handover}</strong> handed over, <strong>{r.timeouts_24h.notify}</strong> counted
            only.
          </p>
          {r.waiting.length ? (
            <>
              <h3>Waiting now</h3>
              <ul>
                {r.waiting.map((w) => (
                  <li key={w.chat_id}>
                    <Link href={`/admin/chats/${encodeURIComponent(w.chat_id)}`}>{w.chat_id}</Link>: since {formatDateTime(w.since)}
                    {w.reply_due_at ? `, budget runs out ${formatDateTime(w.reply_due_at)}` : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {r.timeouts.length ? (
            <>
              <h3>Latest reply timeouts</h3>
              <ul data-testid="reply-timeouts">
                {r.timeouts.map((t) => (
                  <li key={`${t.chat_id}-${t.at}`}>
                    {formatDateTime(t.at)}: <Link href={`/admin/chats/${encodeURIComponent(t.chat_id)}`}>{t.chat_id}</Link>{' '}
                    {t.action === 'handover' ? 'handed over' : 'counted'} after {t.waited_seconds} s
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : (
        <p className="small">{replies.isError ? 'Could not load the replies.' : 'Loading…'}</p>
      )}
    </section>
  );
}
