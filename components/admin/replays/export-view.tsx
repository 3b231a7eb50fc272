'use client';

import Link from 'next/link';
import { type FormEvent, useEffect, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { type Failure, failureOf, fieldError } from '@/components/shared/errors';

type Exported = { url: string; name: string; chats: number };

/**
 * Export chats of the account as a recording (JSON Lines): by IDs, tag, a VA that held them and a
 * creation window; every filter given must hold. The file downloads when it is ready.
 */
export function ExportView() {
  const vas = tsr.virtualAgents.listVirtualAgents.useQuery({ queryKey: keys.virtualAgents });
  const [form, setForm] = useState({ chat_ids: '', tag: '', virtual_agent_id: '', from: '', to: '', limit: '1000' });
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState<Exported | null>(null);
  useEffect(() => () => (done ? URL.revokeObjectURL(done.url) : undefined), [done]);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    setFailure(null);
    setDone(null);
    const ids = form.chat_ids
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const query = {
      ...(ids.length && { chat_ids: ids.join(',') }),
      ...(form.tag.trim() && { tag: form.tag.trim() }),
      ...(form.virtual_agent_id && { virtual_agent_id: Number(form.virtual_agent_id) }),
      // datetime-local has no zone: it is the browser's, sent as an instant.
      ...(form.from && { from: new Date(form.from).toISOString() }),
      ...(form.to && { to: new Date(form.to).toISOString() }),
      ...(form.limit && { limit: Number(form.limit) }),
    };
    try {
      const res = await tsr.replays.exportRecordings.query({ query });
      if (res.status !== 200) {
        setFailure(failureOf(res));
        return;
      }
      // The console's client hands JSON Lines over as text (components/admin/shared/client.ts).
      const text = res.body as unknown as string;
      const chats = text.split('\n').filter(Boolean).length;
      const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
      const name = `recording-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.jsonl`;
      setDone({ url, name, chats });
      if (chats > 0) {
        const a = document.createElement('a');
        a.href = url;
        a.download = name;
        a.click();
      }
    } catch (err) {
      setFailure(failureOf(err));
    } finally {
      setPending(false);
    }
  }

  // A refused query names its fields `query.<name>`.
  const err = (f: string) => fieldError(failure, `query.${f}`) ?? fieldError(failure, f);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Export recordings</h1>
          <p className="muted">
            Chats of this account as a recording to replay (one chat a line, oldest first). Every filter you fill in must hold; the
            customer&apos;s turns and what a VA said after each are written. <Link href="/admin/replays">Back to replays</Link>
          </p>
        </div>
      </div>
      <form className="card" onSubmit={submit} noValidate aria-labelledby="export-title">
        <h2 id="export-title">Which chats</h2>
        <FormError
          failure={failure}
          title="Not exported"
          placed={['query', 'chat_ids', 'tag', 'virtual_agent_id', 'from', 'to', 'limit']}
        />
        <Field id="export-ids" label="Chat IDs" hint="Separated by commas, spaces or lines; at most 500." error={err('chat_ids')}>
          <textarea
            {...described('export-ids', { error: err('chat_ids'), hint: true })}
            rows={3}
            value={form.chat_ids}
            onChange={set('chat_ids')}
          />
        </Field>
        <Field id="export-tag" label="Tag" error={err('tag')}>
          <input {...described('export-tag', { error: err('tag') })} value={form.tag} onChange={set('tag')} />
        </Field>
        <Field id="export-va" label="Virtual Agent that held them" error={err('virtual_agent_id')}>
          <select
            {...described('export-va', { error: err('virtual_agent_id') })}
            value={form.virtual_agent_id}
            onChange={set('virtual_agent_id')}
          >
            <option value="">Any</option>
            {vas.data?.body.response.map((va) => (
              <option key={va.id} value={va.id}>
                {va.name} ({va.login_id})
              </option>
            ))}
          </select>
        </Field>
        <div className="grid-2">
          <Field id="export-from" label="Created from" error={err('from')}>
            <input {...described('export-from', { error: err('from') })} type="datetime-local" value={form.from} onChange={set('from')} />
          </Field>
          <Field id="export-to" label="Created before" error={err('to')}>
            <input {...described('export-to', { error: err('to') })} type="datetime-local" value={form.to} onChange={set('to')} />
          </Field>
        </div>
        <Field id="export-limit" label="At most this many chats" error={err('limit')}>
          <input
            {...described('export-limit', { error: err('limit') })}
            type="number"
            min={1}
            max={100000}
            value={form.limit}
            onChange={set('limit')}
          />
        </Field>
        <SubmitButton pending={pending} pendingText="Exporting…">
          Export and download
        </SubmitButton>
      </form>
      {done && (
        <p className={done.chats ? 'form-ok' : 'form-error'} role="status" data-testid="export-result">
          {done.chats ? (
            <>
              Exported {done.chats} chat{done.chats === 1 ? '' : 's'}.{' '}
              <a href={done.url} download={done.name}>
                Download {done.name} again
              </a>
              , then <Link href="/admin/replays/new">start a replay</Link> with it.
            </>
          ) : (
            'No chat matches every filter given (a chat the customer never wrote in is left out).'
          )}
        </p>
      )}
    </>
  );
}
