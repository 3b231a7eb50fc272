import { type NextRequest, NextResponse } from 'next/server';
import { CODES } from '@/contracts/codes';
import { env } from '@/env';
import { hasDotSegment } from '@/lib/http/dot-segments';
import { API_CSP, COMMON_SECURITY_HEADERS, HSTS, pageCsp } from '@/lib/security/headers';

/**
 * Pages: a fresh nonce per request and the Content-Security-Policy built on it, set on the request
 * (Next.js reads it there to put the nonce on its scripts) and on the answer, with the other
 * security headers. API routes are left out (next.config.ts gives them fixed headers) so the bot
 * API's hot path does not pay for this.
 */
export function proxy(request: NextRequest) {
  // What `npm start`'s server refuses before Next (lib/http/node-entry.ts), refused here too for
  // `next start`: a method Next does not serve (TRACE answered 500) and a path with a dot segment.
  const refusal = refuse(request);
  if (refusal) return refusal;
  const nonce = btoa(crypto.randomUUID());
  const https = (request.headers.get('x-forwarded-proto') ?? request.nextUrl.protocol.replace(':', '')) === 'https';
  const csp = pageCsp(nonce, { dev: env().NODE_ENV === 'development', https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) response.headers.set(name, value);
  if (https) response.headers.set('Strict-Transport-Security', HSTS);
  return response;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOWED = [...METHODS].join(', ');

function refuse(request: NextRequest): NextResponse | null {
  const raw = new URL(request.url).pathname;
  const [code, status, detail] = !METHODS.has(request.method)
    ? ([2099, 405, `${request.method} is not supported; use ${ALLOWED}`] as const)
    : hasDotSegment(raw) || hasDotSegment(request.nextUrl.pathname)
      ? ([2016, 400, 'the path holds a dot segment (. or .., encoded or not)'] as const)
      : [null, 0, ''];
  if (code === null) return null;
  const response = NextResponse.json(
    { status_code: code, description: `${CODES[code].description}: ${detail}`, response: null },
    { status, headers: { 'Content-Security-Policy': API_CSP, ...(code === 2099 ? { Allow: ALLOWED } : {}) } },
  );
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      source: '/((?!api|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
