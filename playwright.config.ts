import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_SERVERS, serverUrl } from './e2e/servers';
import { startNodeFlags } from './test/support/production-server';

// `npm start` (node:http entry in front of Next) by default; E2E_ENTRY=next runs the same build
// under `next start` alone, so both entries pass the same suites.
const START = ['node', ...startNodeFlags(), 'scripts/start.mjs', ...(process.env.E2E_ENTRY === 'next' ? ['--next'] : [])].join(' ');
/**
 * The browser: CHROMIUM_PATH, else Debian's headless shell (`apt-get install -y
 * chromium-headless-shell`), the same engine without the full browser's windowing, as Playwright
 * runs headless by default (the agent specs 157 s → 110 s of wall time on 2 cores), else Debian's
 * full Chromium.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const E2E_ADMIN = { email: 'e2e-admin@example.test', password: 'e2e-password-123' };

/**
 * Projects against real servers (`npm start`, or `next start` with E2E_ENTRY=next, each on a fresh
 * embedded database of its own): `api` drives the HTTP API without a browser, `admin` drives the
 * pages in Debian's Chromium, `security` the security headers, `widget` the chat widget and `agent`
 * the agent workspace, all in Chromium too. One worker by default; with E2E_WORKERS=2 each worker
 * has a server of its own (e2e/servers.ts): a spec file runs whole on one, and the files are shared out.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: E2E_SERVERS,
  retries: 0,
  timeout: 120_000,
  // The machines that run this are shared and slow; waits are on conditions, so a longer limit costs nothing when things are fast.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  // A failed test keeps its trace (each action's DOM, the network, the console) and a screenshot of
  // the end. The trace's own screenshots are off: they screencast every frame, which cost 15 % of the
  // browser tests' CPU (two specs, 154-157 s of CPU with them, 130-132 s without) for nothing a
  // passing run keeps.
  use: { baseURL: serverUrl(0), trace: { mode: 'retain-on-failure', screenshots: false }, screenshot: 'only-on-failure' },
  projects: [
    { name: 'api', testDir: './e2e/api' },
    ...['admin', 'security', 'widget', 'agent'].map((name) => ({
      name,
      testDir: `./e2e/${name}`,
      use: {
        browserName: 'chromium' as const,
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    })),
  ],
  webServer: Array.from({ length: E2E_SERVERS }, (_, n) => ({
    command: `rm -rf .data/e2e/${n} && ${START}`,
    url: `${serverUrl(n)}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(E2E_PORT + n),
      DATA_DIR: `.data/e2e/${n}/pglite`,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      VALIDATE_RESPONSES: 'true',
      DELIVERY_RETRY_DELAYS_MS: '200,400,800',
      DELIVERY_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
      ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '100',
      // The pages are checked with every call of the test bots in the request log.
      BOT_REQUEST_LOG_SAMPLE_RATE: '1',
    },
  })),
});
