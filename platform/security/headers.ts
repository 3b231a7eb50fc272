// No Node-only imports: used by proxy.ts and next.config.ts.

/** Headers every answer carries, pages and API alike. */
export const COMMON_SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // For browsers without CSP frame-ancestors; the CSP says the same.
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** HSTS, sent only on answers served over https (a browser ignores it over http anyway). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** API answers are JSON: they may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The pages' policy. Scripts run only with this request's nonce (Next.js puts it on its own
 * scripts when it finds the policy in the request headers; 'strict-dynamic' lets those load the
 * page's chunks). Inline style attributes (React `style`, chart libraries) need 'unsafe-inline' for
 * styles, which cannot run code. Images come from this origin only: a bot's image URL is never
 * loaded by an administrator's browser. `dev` adds the 'unsafe-eval' React's dev build needs.
 */
export function pageCsp(nonce: string, { dev, https }: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
