/**
 * The checks the Virtual Agent form can make while the administrator types. The server makes
 * them again, plus the address policy after DNS (lib/webhooks/url-policy.ts), on save.
 */

import { headerNameProblem, headerValueProblem } from '@/lib/webhooks/static-headers';

/** What is wrong with a webhook URL's form, or null; whether its address is allowed is the server's call. */
export function checkUrlFormat(raw: string): string | null {
  const value = raw.trim();
  if (!value) return 'Enter the webhook URL, starting with https://';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Not an absolute URL: start with https://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'Only https URLs are accepted (http only where the service allows private addresses)';
  if (url.username || url.password) return 'Credentials in the URL are not allowed: send them as a static header instead';
  if (!url.hostname) return 'The URL has no host';
  return null;
}

/** A note for URLs the server will likely refuse in production, shown as a hint rather than an error. */
export function urlNote(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    if (url.protocol === 'http:')
      return 'Plain http is accepted only when the service runs with WEBHOOK_ALLOW_PRIVATE=true (demo and tests).';
    if (/^(localhost|127\.|10\.|192\.168\.|169\.254\.|\[?::1\]?$)/.test(url.hostname)) {
      return 'Private, loopback and link-local addresses are refused in production.';
    }
  } catch {
    return null;
  }
  return null;
}

export function checkHeaderName(name: string): string | null {
  if (!name.trim()) return 'Enter a header name';
  const problem = headerNameProblem(name);
  if (!problem) return null;
  return problem.startsWith('reserved')
    ? `Reserved: ${name} is set by the service`
    : 'Not a valid header name (letters, digits and - only)';
}

export function checkHeaderValue(value: string): string | null {
  const problem = headerValueProblem(value);
  return problem ? problem.charAt(0).toUpperCase() + problem.slice(1) : null;
}
