'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmButton } from '@/components/admin/confirm-dialog';
import { FormError, SubmitButton } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { formatDateTime, formatMs } from '@/components/admin/shared/format';
import { reveal } from '@/components/admin/shared/revealed-secrets';
import { useToast } from '@/components/admin/toast';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import type { TestEventResult } from '@/contracts/admin/schemas/delivery';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';

function TestResult({ result }: { result: TestEventResult }) {
  return (
    <div
      id="test-event-result"
      className={result.ok ? 'form-ok' : 'form-error'}
      role="status"
      tabIndex={-1}
      data-testid="test-event-result"
    >
      <strong>{result.ok ? 'Delivered: the webhook answered HTTP 200.' : 'Not delivered.'}</strong>
      <dl className="facts small" style={{ marginTop: '0.4rem' }}>
        <dt>HTTP status</dt>
        <dd>{result.http_status ?? 'no answer'}</dd>
        {result.error && (
          <>
            <dt>Error</dt>
            <dd>{result.error}</dd>
          </>
        )}
        <dt>Latency</dt>
        <dd>{formatMs(result.duration_ms)}</dd>
        <dt>Answer</dt>
        <dd className="mono">{result.response_excerpt ? result.response_excerpt.slice(0, 300) : '(empty)'}</dd>
        <dt>transaction_id</dt>
        <dd className="mono">{result.transaction_id}</dd>
      </dl>
    </div>
  );
}

/**
 * A rotation behind a confirmation dialog, since the old value stops working at once (or after the
 * overlap). Escape or Cancel closes it and returns focus to the opener.
 */
function Rotate({ label, warning, pending, onConfirm }: { label: string; warning: string; pending: boolean; onConfirm: () => void }) {
  return (
    <ConfirmButton
      title={`${label}?`}
      warning={<p>{warning}</p>}
      confirm={`${label} now`}
      pending={pending}
      pendingText="Rotating…"
      onConfirm={onConfirm}
    >
      {label}…
    </ConfirmButton>
  );
}

/** Test event, test chat, enable or disable, and key rotations of one VA. */
export function VaActions({ va }: { va: AdminVirtualAgent }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [result, setResult] = useState<TestEventResult | null>(null);
  const test = tsr.vaTools.sendTestEvent.useMutation({
    onSuccess: (res) => {
      setResult(res.body.response);
      focusId('test-event-result');
    },
  });
  const toggle = tsr.virtualAgents.updateVirtualAgent.useMutation({
    onSuccess: (res) => {
      qc.setQueryData(keys.virtualAgent(va.id), res);
      qc.invalidateQueries({ queryKey: keys.virtualAgents });
      toast.success(res.body.response.enabled ? `${va.name} enabled.` : `${va.name} disabled: no chats, events or tokens.`);
    },
  });
  const rotateKey = tsr.virtualAgents.rotateApiKey.useMutation({
    onSuccess: (res) => {
      reveal(va.id, { apiKey: res.body.response.api_key });
      qc.invalidateQueries({ queryKey: keys.virtualAgent(va.id) });
      focusId('reveal-title');
      toast.success('New API key issued; the old one no longer works.');
    },
  });
  const rotateSecret = tsr.virtualAgents.rotateSigningSecret.useMutation({
    onSuccess: (res) => {
      reveal(va.id, { signingSecret: res.body.response.signing_secret });
      focusId('reveal-title');
      toast.success('New signing secret issued.');
    },
  });
  const retryNow = tsr.vaTools.retryNow.useMutation({
    onSuccess: (res) => {
      const n = res.body.response.due_now;
      toast.success(n ? `${n} waiting event${n === 1 ? '' : 's'} of ${va.name} due now.` : `${va.name} has no events waiting for a retry.`);
      qc.invalidateQueries({ queryKey: keys.virtualAgent(va.id) });
    },
  });
  const router = useRouter();
  const testChat = tsr.vaTools.startTestChat.useMutation({
    onSuccess: (res) => {
      toast.success(`Test chat started for ${va.name}: write as the customer under "Add a message".`);
      router.push(`/admin/chats/${res.body.response.chat_id}`);
    },
  });
  const failure = failureOf(toggle.error ?? rotateKey.error ?? rotateSecret.error ?? retryNow.error ?? testChat.error);
  const testFailure = failureOf(test.error);

  return (
    <section className="card" aria-labelledby="va-actions-title">
      <h2 id="va-actions-title" tabIndex={-1}>
        Actions
      </h2>
      <FormError failure={failure} title="Failed" />
      <div className="actions-grid">
        <div>
          <h3>Webhook check</h3>
          <p className="small muted">Sends one signed chat.assigned event with &quot;test&quot;: true for a made-up chat. Not retried.</p>
          <SubmitButton
            type="button"
            pending={test.isPending}
            pendingText="Sending…"
            onClick={() => test.mutate({ params: { id: va.id } })}
          >
            Send test event
          </SubmitButton>
        </div>
        <div>
          <h3>Try the bot</h3>
          <p className="small muted">
            Starts a real chat assigned to this VA, from a made-up customer, with a first message: the bot receives chat.assigned. Then
            write as the customer on the chat&apos;s page.
          </p>
          <SubmitButton
            type="button"
            pending={testChat.isPending}
            pendingText="Starting…"
            disabled={!va.enabled}
            onClick={() => testChat.mutate({ params: { id: va.id }, body: {} })}
          >
            Start a test chat
          </SubmitButton>
        </div>
        <div>
          <h3>Waiting events</h3>
          <p className="small muted">
            Attempts its events waiting for a retry now, in order per chat, instead of at their back-off time. Done by itself when a
            delivery succeeds after failures.
          </p>
          <SubmitButton
            type="button"
            pending={retryNow.isPending}
            pendingText="Retrying…"
            onClick={() => retryNow.mutate({ params: { id: va.id } })}
          >
            Retry now
          </SubmitButton>
        </div>
        <div>
          <h3>{va.enabled ? 'Enabled' : 'Disabled'}</h3>
          <p className="small muted">A disabled VA gets no chats, no events and no access tokens.</p>
          <SubmitButton
            type="button"
            className={va.enabled ? 'btn btn-danger' : 'btn btn-primary'}
            pending={toggle.isPending}
            onClick={() => toggle.mutate({ params: { id: va.id }, body: { enabled: !va.enabled } })}
          >
            {va.enabled ? 'Disable' : 'Enable'}
          </SubmitButton>
        </div>
        <div>
          <h3>API key</h3>
          <p className="small muted">
            Current key starts with <code>{va.api_key_prefix}</code>.
          </p>
          {va.previous_api_key_valid_until && (
            <p className="small">Old key valid until {formatDateTime(va.previous_api_key_valid_until)}.</p>
          )}
          <Rotate
            label="Rotate API key"
            warning="The old key and every access token issued with it stop working at once (use this for a leaked key)."
            pending={rotateKey.isPending}
            onConfirm={() => rotateKey.mutate({ params: { id: va.id }, body: { mode: 'at_once' } })}
          />
          <Rotate
            label="Roll API key with overlap"
            warning="The old key keeps authorizing for the overlap (24 h by default), so the bot can switch without a failed call."
            pending={rotateKey.isPending}
            onConfirm={() => rotateKey.mutate({ params: { id: va.id }, body: { mode: 'overlap' } })}
          />
        </div>
        <div>
          <h3>Signing secret</h3>
          <p className="small muted">Verifies the webhook-signature header of each event.</p>
          {va.previous_signing_secret_valid_until && (
            <p className="small">
              Old secret valid until {formatDateTime(va.previous_signing_secret_valid_until)}: events carry both signatures until then.
            </p>
          )}
          <Rotate
            label="Rotate signing secret"
            warning="For the overlap (24 h by default) events carry signatures with both the new and the old secret, so the bot keeps verifying until it is updated."
            pending={rotateSecret.isPending}
            onConfirm={() => rotateSecret.mutate({ params: { id: va.id }, body: { mode: 'overlap' } })}
          />
        </div>
      </div>
      <FormError failure={testFailure} title="Test event not sent" />
      {result && <TestResult result={result} />}
    </section>
  );
}
