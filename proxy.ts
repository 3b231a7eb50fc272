import { type NextRequest, NextResponse } from 'next/server';
import { env } from '@/env';
import { COMMON_SECURITY_HEADERS, HSTS, pageCsp } from '@/platform/security/headers';

/**
 * Pages: a fresh nonce per request and the Content-Security-Policy built on it, set on the request
 * (Next.js reads it there to put the nonce on its scripts) and on the answer, with the other
 * security headers. API routes are left out (next.config.ts gives them fixed headers) so the bot
 * API's hot path does not pay for this.
 */
export function proxy(request: NextRequest) {
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

export const config = {
  matcher: [
    {
      // The chat widget's page (/chat/<app id>) sets its own policy (app/chat/[appId]/route.ts).
      source: '/((?!api|chat/|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
