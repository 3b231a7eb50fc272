import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
// `npm start` (node:http entry in front of Next) by default; E2E_ENTRY=next runs the same build
// under `next start` alone, so both entries pass the same suites.
const START = process.env.E2E_ENTRY === 'next' ? 'node scripts/start.mjs --next' : 'node scripts/start.mjs';
export const E2E_ADMIN = { email: 'e2e-admin@example.test', password: 'e2e-password-123' };

/**
 * Two projects against one real server (`npm start`, or `next start` with E2E_ENTRY=next, on a
 * fresh embedded database):
 * `api` drives the HTTP API without a browser, `admin` drives the pages in Debian's Chromium, `security` the security headers, `widget` the chat widget and `agent` the agent workspace, all in Chromium too.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // The machines that run this are shared and slow; waits are on conditions, so a longer limit costs nothing when things are fast.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'retain-on-failure' },
  projects: [
    { name: 'api', testDir: './e2e/api' },
    ...['admin', 'security', 'widget', 'agent'].map((name) => ({
      name,
      testDir: `./e2e/${name}`,
      use: {
        browserName: 'chromium' as const,
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  webServer: {
    command: `rm -rf .data/e2e && ${START}`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: '.data/e2e/pglite',
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
  },
});
