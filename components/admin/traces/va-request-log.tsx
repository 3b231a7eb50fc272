'use client';

import { isAppRoute } from '@ts-rest/core';
import { type FormEvent, useEffect, useState } from 'react';
import { LoadState } from '@/components/admin/data-table';
import { asOptions, FilterInput, FilterRow, FilterSelect } from '@/components/admin/filter-row';
import { focusWhenReady } from '@/components/admin/focus';
import { tsr } from '@/components/admin/lib/client';
import { Pager, useCursorPages } from '@/components/admin/pager';
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

const OUTCOMES = [
  { value: 'success', label: 'Success' },
  { value: 'failure', label: 'Failure (HTTP 400 and above)' },
];

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
  const pages = useCursorPages();
  const cursor = pages.cursor;
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
    pages.reset();
  };
  const set = (patch: Filters) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <section className="card" aria-labelledby="va-requests-title">
      <h2 id="va-requests-title">Request log</h2>
      <p className="muted small">
        The bot&apos;s REST calls and our answers, newest first. Failures are always recorded; successes as the server&apos;s
        BOT_REQUEST_LOG setting says. Bodies, tokens and customer text are never recorded.
      </p>
      <FilterRow
        label="Filter the request log"
        card={false}
        nativeValidation
        onSubmit={apply}
        actions={
          <button type="submit" className="btn">
            Apply
          </button>
        }
      >
        <FilterSelect
          id="rl-outcome"
          label="Outcome"
          value={draft.outcome}
          onChange={(v) => set({ outcome: v as Filters['outcome'] })}
          options={OUTCOMES}
        />
        <FilterInput
          id="rl-code"
          label="status_code"
          inputMode="numeric"
          pattern="[0-9]*"
          value={draft.status_code}
          onChange={(v) => set({ status_code: v })}
        />
        <FilterSelect
          id="rl-operation"
          label="Operation"
          value={draft.operation}
          onChange={(v) => set({ operation: v })}
          options={asOptions(OPERATIONS)}
        />
        <FilterInput
          id="rl-since"
          label="From"
          type="datetime-local"
          value={draft.since}
          onChange={(v) => set({ since: v || undefined })}
        />
        <FilterInput
          id="rl-until"
          label="Before"
          type="datetime-local"
          value={draft.until}
          onChange={(v) => set({ until: v || undefined })}
        />
        <FilterInput id="rl-trxid" label="trxid" type="search" value={draft.trxid} onChange={(v) => set({ trxid: v })} />
      </FilterRow>
      <LoadState query={requests} failure="Could not load the request log" />
      <RequestRows requests={page?.requests} label="Requests of this Virtual Agent" highlight={filters.trxid} empty="No requests match." />
      <Pager pages={pages} next={page?.next_cursor} label="Request log pages" />
    </section>
  );
}
