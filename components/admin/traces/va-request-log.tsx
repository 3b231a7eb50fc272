'use client';

import { isAppRoute } from '@ts-rest/core';
import { useEffect, useState } from 'react';
import { LoadState } from '@/components/admin/data-table';
import { asOptions, FilterRow, FilterSelect } from '@/components/admin/filter-row';
import { Field } from '@/components/admin/form';
import { Pager, useCursorPages } from '@/components/admin/pager';
import { tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useContractForm } from '@/components/admin/use-contract-form';
import { focusWhenReady } from '@/components/shared/focus';
import { type BotRequestQuery, botRequestQuerySchema } from '@/contracts/admin/schemas/trace';
import { botContract } from '@/contracts/bot';
import { RecordingNote } from './recording-note';
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

type FilterValues = { outcome: string; status_code: string; operation: string; since: string; until: string; trxid: string };
type Filters = Pick<BotRequestQuery, 'outcome' | 'status_code' | 'operation' | 'since' | 'until' | 'trxid'>;

/** A `datetime-local` value (the browser's time zone) as an ISO instant. */
const isoOf = (local: string) => {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
};

const resolver = contractResolver(
  botRequestQuerySchema.pick({ outcome: true, status_code: true, operation: true, since: true, until: true, trxid: true }),
  (v: FilterValues) => ({
    ...(v.outcome ? { outcome: v.outcome } : {}),
    ...(v.status_code.trim() ? { status_code: v.status_code.trim() } : {}),
    ...(v.operation ? { operation: v.operation } : {}),
    ...(v.since ? { since: isoOf(v.since) } : {}),
    ...(v.until ? { until: isoOf(v.until) } : {}),
    ...(v.trxid.trim() ? { trxid: v.trxid.trim() } : {}),
  }),
  {
    outcome: 'the outcome',
    status_code: 'the status_code',
    operation: 'the operation',
    since: 'the start',
    until: 'the end',
    trxid: 'the trxid',
  },
);

/** One VA's request log, newest first, filtered by outcome, code, operation, time or trxid, paged. */
export function VaRequestLog({ virtualAgentId, trxid }: { virtualAgentId: number; trxid?: string }) {
  const [filters, setFilters] = useState<Filters>(trxid ? { trxid } : {});
  const form = useContractForm<FilterValues, Filters>(resolver, {
    outcome: '',
    status_code: '',
    operation: '',
    since: '',
    until: '',
    trxid: trxid ?? '',
  });
  const err = form.messages(null);
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const query: BotRequestQuery = {
    virtual_agent_id: virtualAgentId,
    ...filters,
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
  const apply = form.handleSubmit((picked) => {
    setFilters(picked);
    pages.reset();
  });

  return (
    <section className="card" aria-labelledby="va-requests-title">
      <h2 id="va-requests-title">Request log</h2>
      <p className="muted small">
        The bot&apos;s REST calls and our answers, newest first. Bodies, tokens and customer text are never recorded.
      </p>
      <RecordingNote recording={page?.recording} />
      <FilterRow
        label="Filter the request log"
        card={false}
        onSubmit={apply}
        actions={
          <button type="submit" className="btn">
            Apply
          </button>
        }
      >
        <FilterSelect id="rl-outcome" label="Outcome" options={OUTCOMES} {...form.register('outcome')} />
        <Field id="rl-code" label="status_code" error={err('status_code')}>
          <input {...form.bind('status_code', 'rl-code', { failure: null })} inputMode="numeric" />
        </Field>
        <FilterSelect id="rl-operation" label="Operation" options={asOptions(OPERATIONS)} {...form.register('operation')} />
        <Field id="rl-since" label="From">
          <input id="rl-since" type="datetime-local" {...form.register('since')} />
        </Field>
        <Field id="rl-until" label="Before">
          <input id="rl-until" type="datetime-local" {...form.register('until')} />
        </Field>
        <Field id="rl-trxid" label="trxid" error={err('trxid')}>
          <input {...form.bind('trxid', 'rl-trxid', { failure: null })} type="search" />
        </Field>
      </FilterRow>
      <LoadState query={requests} failure="Could not load the request log" />
      <RequestRows requests={page?.requests} label="Requests of this Virtual Agent" highlight={filters.trxid} empty="No requests match." />
      <Pager pages={pages} next={page?.next_cursor} label="Request log pages" />
    </section>
  );
}
