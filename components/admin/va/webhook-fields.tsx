'use client';

import { useState } from 'react';
import { described, Field } from '@/components/admin/form';
import { duplicateKey, type KvRow, KvRows } from '@/components/admin/kv-rows';
import { checkHeaderName, checkHeaderValue, checkUrlFormat, urlNote } from '@/components/admin/shared/webhook-checks';
import { type Failure, fieldError } from '@/components/shared/errors';

export function headerProblem(row: KvRow, rows: KvRow[]): string | null {
  return checkHeaderName(row.key.trim()) ?? checkHeaderValue(row.value) ?? duplicateKey(row, rows);
}

/** Why the server refused the URL (3007), explained for someone who has not met SSRF before. */
function Refusal({ reason }: { reason: string }) {
  return (
    <div id="va-webhook-refusal" className="form-error" role="alert">
      <strong>The service refused this webhook URL:</strong> {reason}.
      <p className="small" style={{ margin: '0.35rem 0 0' }}>
        Webhooks must be public <code>https</code> addresses. Private (10.x, 172.16–31.x, 192.168.x), loopback (127.x, localhost) and
        link-local (169.254.x) addresses are refused, also when a host name resolves to one, so that a webhook cannot be used to reach
        internal systems (server-side request forgery). Use the bot&apos;s public address.
      </p>
    </div>
  );
}

/** Webhook URL (checked as typed, and the server's address verdict on save) and static headers. */
export function WebhookFields({
  optional = false,
  url,
  onUrl,
  headers,
  onHeaders,
  failure,
  schemaError,
  showErrors,
}: {
  /** Pull mode: nothing is POSTed, so the URL may stay empty. */
  optional?: boolean;
  url: string;
  onUrl: (v: string) => void;
  headers: KvRow[];
  onHeaders: (rows: KvRow[]) => void;
  failure: Failure | null;
  /** The contract schema's word on the URL, from the form. */
  schemaError?: string;
  showErrors: boolean;
}) {
  const [touched, setTouched] = useState(false);
  const formatError = (touched || showErrors) && !(optional && !url.trim()) ? checkUrlFormat(url) : null;
  const serverError = schemaError ?? (failure?.code === 3007 ? null : fieldError(failure, 'webhook_url'));
  const refusal = failure?.code === 3007 ? (failure.fields.webhook_url ?? failure.description) : null;
  const note = formatError ? null : urlNote(url);
  return (
    <>
      <Field
        id="va-webhook"
        label={optional ? 'Webhook URL (optional in pull mode)' : 'Webhook URL'}
        required={!optional}
        error={formatError ?? serverError}
        hint={
          note ??
          (optional
            ? 'Not needed in pull mode: nothing is POSTed. Kept for switching back to webhook delivery.'
            : 'Events are POSTed here, signed with the signing secret. The bot must answer HTTP 200 within 5 s.')
        }
      >
        <input
          {...described('va-webhook', { error: formatError ?? serverError, hint: true, required: !optional })}
          {...(refusal ? { 'aria-invalid': true, 'aria-describedby': 'va-webhook-hint va-webhook-refusal' } : {})}
          type="url"
          inputMode="url"
          placeholder="https://bot.example.com/events"
          value={url}
          onChange={(e) => onUrl(e.target.value)}
          onBlur={() => setTouched(true)}
        />
      </Field>
      {refusal && <Refusal reason={refusal.replace(/^Webhook URL refused: /, '')} />}
      <KvRows
        id="va-headers"
        legend="Static request headers"
        hint="Sent with every event, e.g. an Authorization header your bot checks. Only fixed values; the signature, content and transport headers are reserved."
        rows={headers}
        onChange={onHeaders}
        keyLabel="Header name"
        valueLabel="Header value"
        addLabel="Add header"
        check={headerProblem}
        serverError={(k) => fieldError(failure, `webhook_headers.${k}`)}
      />
    </>
  );
}
