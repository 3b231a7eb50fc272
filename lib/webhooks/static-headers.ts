// No Node-only imports here: the admin pages check headers with these same rules as you type.

/** Header names a VA's static headers may not set: ours, and those that would break the request. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'user-agent',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_VALUE = 4096;

/** What is wrong with one header name, or null. */
export function headerNameProblem(name: string): string | null {
  if (!HEADER_NAME.test(name)) return 'not a valid header name';
  if (RESERVED_HEADERS.has(name.toLowerCase())) return 'reserved: set by the service';
  return null;
}

/**
 * What is wrong with one header value, or null. HTTP's field-value syntax, kept to ASCII: visible
 * characters with single spaces or tabs between them, no control characters, no leading or trailing
 * whitespace. Non-ASCII (obs-text) is refused too: HTTP clients encode it differently, and Node
 * refuses characters past Latin-1 outright, which would fail every delivery.
 */
export function headerValueProblem(value: string): string | null {
  if (/[\r\n]/.test(value)) return 'value may not contain line breaks';
  if (hasControlCharacter(value)) return 'value may not contain control characters';
  if (/[^\x20-\x7e\t]/.test(value)) return 'value may contain only ASCII characters';
  if (/^[ \t]|[ \t]$/.test(value)) return 'value may not start or end with a space or tab';
  if (value.length > MAX_VALUE) return `value longer than ${MAX_VALUE} characters`;
  return null;
}

/** C0 controls other than tab, and DEL. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

/** Problems with static headers, one per offending name; empty when all are acceptable. */
export function checkStaticHeaders(headers: Record<string, string>): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const message = headerNameProblem(name) ?? headerValueProblem(value);
    if (message) problems.push({ field: `webhook_headers.${name}`, message });
  }
  return problems;
}
