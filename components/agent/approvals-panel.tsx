'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { failureOf } from '@/components/shared/errors';
import type { Approval } from '@/contracts/bot/schemas/approval';
import { keys, tsr } from './client';

/**
 * The pending approval requests of the person's teams, live with the lists: each can be approved or
 * rejected with a comment, and the details the bot marked editable changed before approving.
 */
export function ApprovalsPanel({ approvals, onOpen }: { approvals: Approval[]; onOpen: (chatId: string) => void }) {
  return (
    <section aria-labelledby="approvals-title" className="approvals-panel">
      <h2 id="approvals-title">
        Approvals <span className="count">({approvals.length})</span>
      </h2>
      {approvals.length === 0 ? (
        <p className="muted small">No requests waiting.</p>
      ) : (
        <ul className="approvals">
          {approvals.map((a) => (
            <li key={a.approval_id}>
              <ApprovalItem approval={a} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ApprovalItem({ approval: a, onOpen }: { approval: Approval; onOpen: (chatId: string) => void }) {
  const qc = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(a.details.map((d) => [d.key, d.value])));
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `approval-${a.approval_id}`;

  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setError(null);
    const changed = Object.fromEntries(
      a.details.filter((d) => d.editable && values[d.key] !== d.value).map((d) => [d.key, values[d.key] ?? d.value]),
    );
    try {
      const res = await tsr.chats.decideApproval.mutate({
        params: { approval_id: a.approval_id },
        body: {
          decision,
          ...(comment.trim() && { comment: comment.trim() }),
          ...(decision === 'approve' && Object.keys(changed).length > 0 && { details: changed }),
        },
      });
      if (res.status !== 200) throw res;
      qc.invalidateQueries({ queryKey: keys.lists });
      qc.invalidateQueries({ queryKey: keys.chat(a.chat_id) });
    } catch (err) {
      setError(failureOf(err)?.description ?? null);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const which = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'reject' ? 'reject' : 'approve';
    void decide(which);
  };

  return (
    <form className="approval card" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`} className="approval-title">
        {a.action}: {a.summary}
      </h3>
      <p className="small muted">
        Asked by {a.requested_by}, until {new Date(a.expires_at).toLocaleTimeString()}.{' '}
        <button type="button" className="btn btn-link btn-small" onClick={() => onOpen(a.chat_id)}>
          Open the chat
        </button>
      </p>
      {a.details.length > 0 && (
        <dl className="kv">
          {a.details.map((d) => (
            <div key={d.key} className="kv-pair">
              <dt>{d.editable ? <label htmlFor={`${id}-${d.key}`}>{d.key} (editable)</label> : d.key}</dt>
              <dd>
                {d.editable ? (
                  <input
                    id={`${id}-${d.key}`}
                    type="text"
                    maxLength={500}
                    value={values[d.key] ?? ''}
                    onChange={(e) => setValues({ ...values, [d.key]: e.target.value })}
                  />
                ) : (
                  d.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className="field">
        <label htmlFor={`${id}-comment`}>Comment for the bot (optional)</label>
        <input id={`${id}-comment`} type="text" maxLength={1000} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row-actions">
        <button type="submit" value="approve" className="btn btn-primary btn-small" disabled={busy}>
          Approve
        </button>
        <button type="submit" value="reject" className="btn btn-danger btn-small" disabled={busy}>
          Reject
        </button>
      </div>
    </form>
  );
}
