'use client';

import { useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { tsr } from '@/components/admin/shared/client';
import { formatDateTime, parseDateTime } from '@/components/admin/shared/format';
import { useToast } from '@/components/admin/toast';
import { failureOf } from '@/components/shared/errors';
import type { Recovery } from '@/contracts/admin/schemas/delivery';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';

const UNREADABLE = 'Write a date and time such as 27 Nov 2026, 07:40.';
const recoveriesKey = (id: number) => ['virtual-agents', id, 'recoveries'];

function Progress({ r }: { r: Recovery }) {
  const settled = r.delivered + r.failed;
  return (
    <div data-testid={`recovery-${r.id}`}>
      <progress
        max={Math.max(r.total, 1)}
        value={r.status === 'done' ? Math.max(r.total, 1) : settled}
        aria-label={`Recovery ${r.id} progress`}
      />{' '}
      <span className="small">
        {r.status === 'done' ? 'Done' : 'Running'}: {r.delivered} delivered, {r.failed} failed again, {r.pending} pending, {r.requeued} of{' '}
        {r.total} sent again · events from {formatDateTime(r.since)} to {formatDateTime(r.until)}
      </span>
    </div>
  );
}

/**
 * The long-outage tools of one VA: its failing mark (nothing but failed attempts for days) and
 * "Recover failed events since…", which sends the VA's failed events of a window again, in order,
 * in the background, with the progress of its recoveries.
 */
export function RecoveryCard({ va }: { va: AdminVirtualAgent }) {
  const toast = useToast();
  const [since, setSince] = useState(() => formatDateTime(new Date(Date.now() - 24 * 3600_000).toISOString()));
  const [unreadable, setUnreadable] = useState(false);
  const list = tsr.vaTools.listRecoveries.useQuery({
    queryKey: recoveriesKey(va.id),
    queryData: { params: { id: va.id } },
    refetchInterval: (q) => (q.state.data?.body.response.some((r) => r.status === 'running') ? 2_000 : 15_000),
  });
  const start = tsr.vaTools.startRecovery.useMutation({
    onSuccess: (res) => {
      list.refetch();
      toast.success(`Recovery started: ${res.body.response.total} failed events to send again.`);
    },
  });
  const recoveries = list.data?.body.response ?? [];
  const running = recoveries.some((r) => r.status === 'running');
  return (
    <section className="card" aria-labelledby="va-recovery-title">
      <h2 id="va-recovery-title">Failed events</h2>
      {va.webhook_failing ? (
        <p className="form-error" data-testid="webhook-failing">
          <strong>Webhook failing:</strong> nothing but failed attempts since {formatDateTime(va.webhook_failing.since)} (marked{' '}
          {formatDateTime(va.webhook_failing.marked_at)}). Events are still retried; once the bot answers, recover the failed ones below.
        </p>
      ) : null}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const at = parseDateTime(since);
          setUnreadable(!at);
          if (at) start.mutate({ params: { id: va.id }, body: { since: at.toISOString() } });
        }}
      >
        <Field
          id="recover-since"
          label="Recover failed events since"
          hint="Your local time, written as the rest of the console writes it (27 Nov 2026, 07:40). Every failed event of this VA created since then is sent again, oldest first."
          error={unreadable ? UNREADABLE : undefined}
        >
          <input
            {...described('recover-since', { error: unreadable ? UNREADABLE : undefined, hint: true, required: true })}
            type="text"
            inputMode="text"
            autoComplete="off"
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </Field>
        <SubmitButton pending={start.isPending} pendingText="Starting…" disabled={running}>
          Recover failed events
        </SubmitButton>
      </form>
      <FormError failure={failureOf(start.error)} title="Not started" />
      {recoveries.length > 0 && (
        <div role="status" aria-live="polite">
          {recoveries.slice(0, 3).map((r) => (
            <Progress key={r.id} r={r} />
          ))}
        </div>
      )}
    </section>
  );
}
