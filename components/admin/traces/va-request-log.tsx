'use client';

import { isAppRoute } from '@ts-rest/core';
import { type FormEvent, useEffect, useState } from 'react';
import { focusWhenReady } from '@/components/admin/focus';
import { tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { botContract } from '@/contracts/bot';
import type { BotRequestQuery } from '@/contracts/schemas/admin-trace';
import { RequestRows } from './request-rows';

const PAGE_SIZE = 25;

/** The bot API's operationIds, for the operation filter. */
const OPERATIONS = Object.values(botContract).flatMap((group) =>
  Object.entries(group)
    .filter(([, route]) => isAppRoute(route))
    .map(([key]) => key),
);

type Filters = {
  outcome?: 'success' | 'failure';
  status_code?: string;
  operation?: string;
  since?: string;
  until?: string;
  trxid?: string;
};

/** A `datetime-local` value (the browser's time zone) as an ISO instant. */
const isoOf = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

/** One VA's request log, newest first, filtered by outcome, code, operation, time or trxid, paged. */
export function VaRequestLog({ virtualAgentId, trxid }: { virtualAgentId: number; trxid?: string }) {
  const [filters, setFilters] = useState<Filters>(trxid ? { trxid } : {});
  const [draft, setDraft] = useState<Filters>(filters);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const code = filters.status_code ? Number(filters.status_code) : undefined;
  const query: BotRequestQuery = {
    virtual_agent_id: virtualAgentId,
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(code && Number.isInteger(code) && code > 0 ? { status_code: code } : {}),
    ...(filters.operation ? { operation: filters.operation } : {}),
    ...(filters.since ? { since: isoOf(filters.since) } : {}),
    ...(filters.until ? { until: isoOf(filters.until) } : {}),
    ...(filters.trxid ? { trxid: filters.trxid } : {}),
    page_size: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  };
  const requests = tsr.traces.listBotRequests.useQuery({
    queryKey: ['bot-requests', query],
    queryData: { query },
    refetchInterval: cursor ? false : 5_000,
    placeholderData: (prev) => prev,
  });
  const page = requests.data?.body.response;
  // Opened from a trace link: the request's row takes focus once it is shown (after the heading's).
  useEffect(() => {
    if (!trxid) return;
    focusWhenReady(
      () => document.querySelector<HTMLElement>(`tr[data-trxid="${CSS.escape(trxid)}"]`),
      (el) =>
        requestAnimationFrame(() => {
          el.focus({ preventScroll: true });
          el.scrollIntoView({ block: 'center' });
        }),
    );
  }, [trxid]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters({ ...draft, trxid: draft.trxid?.trim() || undefined, status_code: draft.status_code?.trim() || undefined });
    setCursors([undefined]);
  };
  const set = (patch: Filters) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <section className="card" aria-labelledby="va-requests-title">
      <h2 id="va-requests-title">Request log</h2>
      <p className="muted small">
        The bot&apos;s REST calls and our answers, newest first. Failures are always recorded; successes as the server&apos;s
        BOT_REQUEST_LOG setting says. Bodies, tokens and customer text are never recorded.
      </p>
      <search aria-label="Filter the request log">
        <form className="filters" onSubmit={apply}>
          <div className="field">
            <label htmlFor="rl-outcome">Outcome</label>
            <select
              id="rl-outcome"
              value={draft.outcome ?? ''}
              onChange={(e) => set({ outcome: (e.target.value || undefined) as Filters['outcome'] })}
            >
              <option value="">Any</option>
              <option value="success">Success</option>
              <option value="failure">Failure (HTTP 400 and above)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="rl-code">status_code</label>
            <input
              id="rl-code"
              inputMode="numeric"
              pattern="[0-9]*"
              value={draft.status_code ?? ''}
              onChange={(e) => set({ status_code: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="rl-operation">Operation</label>
            <select id="rl-operation" value={draft.operation ?? ''} onChange={(e) => set({ operation: e.target.value || undefined })}>
              <option value="">Any</option>
              {OPERATIONS.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rl-since">From</label>
            <input
              id="rl-since"
              type="datetime-local"
              value={draft.since ?? ''}
              onChange={(e) => set({ since: e.target.value || undefined })}
            />
          </div>
          <div className="field">
            <label htmlFor="rl-until">Before</label>
            <input
              id="rl-until"
              type="datetime-local"
              value={draft.until ?? ''}
              onChange={(e) => set({ until: e.target.value || undefined })}
            />
          </div>
          <div className="field">
            <label htmlFor="rl-trxid">trxid</label>
            <input id="rl-trxid" type="search" value={draft.trxid ?? ''} onChange={(e) => set({ trxid: e.target.value })} />
          </div>
          <button type="submit" className="btn">
            Apply
          </button>
        </form>
      </search>
      {requests.error && <p className="form-error">Could not load the request log: {failureOf(requests.error)?.description}</p>}
      {requests.isPending && <p className="muted">Loading…</p>}
      {page && page.requests.length === 0 && <p className="muted">No requests match.</p>}
      {page && page.requests.length > 0 && (
        <RequestRows requests={page.requests} label="Requests of this Virtual Agent" highlight={filters.trxid} />
      )}
      <nav className="pager" aria-label="Request log pages">
        <button type="button" className="btn" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Newer
        </button>
        <span className="muted small">Page {cursors.length}</span>
        <button
          type="button"
          className="btn"
          disabled={!page?.next_cursor}
          onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])}
        >
          Older →
        </button>
      </nav>
    </section>
  );
}
