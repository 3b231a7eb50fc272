/**
 * Whether a request path holds a dot segment (`.` or `..`) once percent-decoded, however many times
 * it was encoded (`%2e%2e`, `%2E%2E`, `..%2f`, `%252e%252e`), with `/` or `\` as separators. Such a
 * path is refused by `npm start`'s server (platform/http/node-entry.ts): normalised by the framework, `/api/v1/%2e%2e/admin/me` reached
 * the admin API, so a proxy publishing `/api/v1/*` by prefix published the rest too.
 */
export function hasDotSegment(path: string): boolean {
  let current = path;
  // Each round decodes one level of encoding; a path still changing after a few is refused as well.
  for (let round = 0; round < 4; round++) {
    if (current.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) return true;
    if (!current.includes('%')) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      // Not valid percent-encoding: other checks refuse it (2016), not this one.
      return false;
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}
