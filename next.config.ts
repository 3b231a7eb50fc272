import type { NextConfig } from 'next';
import { API_CSP, COMMON_SECURITY_HEADERS, HSTS } from './platform/security/headers';

const common = Object.entries(COMMON_SECURITY_HEADERS).map(([key, value]) => ({ key, value }));
// The chat widget's page may be framed by its asset's allowed origins: its own CSP
// frame-ancestors says which (app/chat/[appId]/route.ts), so it does not get X-Frame-Options.
const framable = common.filter((h) => h.key !== 'X-Frame-Options');

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
  // The build does not type-check: `npm run typecheck` does (CI runs it beside the lint), and the
  // first `npm start` on a fresh machine is a minute sooner for it.
  typescript: { ignoreBuildErrors: true },
  // Fixed security headers; pages get their nonce-based CSP from proxy.ts.
  async headers() {
    return [
      { source: '/', headers: common },
      { source: '/:path((?!chat/).+)', headers: common },
      { source: '/chat/:path*', headers: framable },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CSP }] },
      // Static assets are not seen by proxy.ts; they still may not be framed.
      { source: '/_next/static/:path*', headers: [{ key: 'Content-Security-Policy', value: "frame-ancestors 'none'" }] },
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }],
        headers: [{ key: 'Strict-Transport-Security', value: HSTS }],
      },
    ];
  },
};

export default nextConfig;
