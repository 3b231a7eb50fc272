'use client';

import { useState } from 'react';

/** A value shown once, with a copy button. */
export function SecretValue({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (e.g. an insecure origin): select the text so Ctrl+C works.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="secret">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} className="mono" readOnly value={value} onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-small" onClick={copy} aria-label={`Copy ${label}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** The once-only box for credentials just issued. */
export function SecretReveal({
  title,
  apiKey,
  signingSecret,
  onDone,
}: {
  title: string;
  apiKey?: string;
  signingSecret?: string;
  onDone: () => void;
}) {
  return (
    <section className="reveal" aria-labelledby="reveal-title" data-testid="secret-reveal">
      {/* The page's focus lands here first: these values are shown only once. */}
      <h2 id="reveal-title" tabIndex={-1} data-page-focus>
        {title}
      </h2>
      <p className="reveal-warning">
        <strong>Copy these now: you will not see them again.</strong> They are stored only as hashes or used for signing; if lost, rotate
        them.
      </p>
      {apiKey && <SecretValue id="revealed-api-key" label="API key" value={apiKey} />}
      {signingSecret && <SecretValue id="revealed-signing-secret" label="Webhook signing secret" value={signingSecret} />}
      <button type="button" className="btn" onClick={onDone}>
        I have stored them
      </button>
    </section>
  );
}
