'use client';

import { useState } from 'react';
import { useToast } from '@/components/admin/toast';

/** Copies text where the Clipboard API is missing (plain http to a non-local host). */
function copyByCommand(value: string): boolean {
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  return done;
}

/** An id as support quotes it, with a button that copies it (announced to screen readers). */
export function CopyId({ value, label }: { value: string; label: string }) {
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(value);
      done = true;
    } catch {
      done = copyByCommand(value);
    }
    setCopied(done);
    toast.announce(done ? `${label} copied` : `${label} could not be copied; select it instead`);
  };
  return (
    <span className="copy-id">
      <code className="mono" title={value}>
        {value}
      </code>{' '}
      <button type="button" className="btn btn-small btn-copy" onClick={copy} onBlur={() => setCopied(false)}>
        {copied ? 'Copied' : 'Copy'}
        <span className="sr-only"> {label}</span>
      </button>
    </span>
  );
}
