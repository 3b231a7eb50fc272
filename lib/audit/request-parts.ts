/** What an audit entry takes from a request: shared by the console's and the workspace's guards. */

/** The request's JSON body, or undefined when there is none or it does not parse. */
export function readJsonBody(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** The value of the route pattern's first `:param` in `pathname` (the target of the action), at most 100 characters. */
export function firstPathParam(pattern: string, pathname: string): string | null {
  const at = pattern.split('/').findIndex((part) => part.startsWith(':'));
  if (at < 0) return null;
  const raw = pathname.split('/')[at];
  if (raw === undefined) return null;
  try {
    return decodeURIComponent(raw).slice(0, 100);
  } catch {
    return raw.slice(0, 100);
  }
}
