import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '../../test/support/production-server';
import { E2E_PORT, expect, test } from '../servers';

test('every page has the icon: the head names /favicon.ico and it answers an SVG, never a 404', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (r) => {
    // (The signed-out workspace's 401 on /api/agent/me is its sign-in form, not a missing file.)
    if (r.status() === 404) missing.push(r.url());
  });
  for (const at of ['/admin/login', '/agent', '/docs', '/docs/bot-api']) {
    await page.goto(at);
    const href = await page.locator('head link[rel~="icon"]').first().getAttribute('href');
    expect(href, `${at}: the icon link`).toMatch(/^\/favicon\.ico/);
    const icon = await page.request.get(href!);
    expect(icon.status(), `${at}: ${href}`).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    expect((await icon.text()).trimStart()).toMatch(/^<svg/);
  }
  // The browser's own probe of /favicon.ico (a page without a link) is answered too.
  const probe = await page.request.get('/favicon.ico');
  expect(probe.status()).toBe(200);
  expect(missing, 'files not found while loading the pages').toEqual([]);
});

/**
 * The banner `npm start` prints on a restart of the demo, after an administrator disabled the Demo
 * Bot in the console: it says so and where to enable it, and no longer says to start the bot. Its
 * own server on its own fresh embedded database (the demo is seeded only on a first start), beside
 * the suite's.
 */
test('after the Demo Bot is disabled in the console, the restart banner stops telling to start it', async ({ page }) => {
  test.setTimeout(300_000);
  const port = E2E_PORT + 17;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-banner-'));
  const env = {
    DATA_DIR: path.join(dir, 'pglite'),
    ADMIN_EMAIL: undefined,
    ADMIN_PASSWORD: undefined,
    DATABASE_URL: undefined,
    LOG_LEVEL: 'warn',
  };
  let server: ProductionServer | null = startProductionServer(port, env);
  try {
    await waitForServer(server);
    const banner = (s: ProductionServer) => s.out.join('\n');
    await expect.poll(() => banner(server!), { timeout: 60_000 }).toContain('Admin login');
    const first = banner(server);
    expect(first).toContain('Start the demo bot (another terminal): npm run demo:bot');
    const login = /Admin login: (\S+)\s+\/\s+(\S+)/.exec(first);
    expect(login, first).not.toBeNull();
    const [, email, password] = login!;

    // The administrator disables the Demo Bot on its page, in the browser.
    await page.goto(`${server.base}/admin/login?next=${encodeURIComponent('/admin/virtual-agents')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin\/virtual-agents$/);
    await page.getByRole('link', { name: 'Demo Bot' }).first().click();
    await expect(page.getByRole('heading', { name: 'Enabled', level: 3 })).toBeVisible();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Disabled', level: 3 })).toBeVisible();
    // The banner names the page by the service's address (localhost), the browser by 127.0.0.1.
    const vaPath = new URL(page.url()).pathname;

    await stopProductionServer(server);
    server = startProductionServer(port, env);
    await waitForServer(server);
    await expect.poll(() => banner(server!), { timeout: 60_000 }).toContain('Admin login');
    const again = banner(server);
    expect(again).toMatch(new RegExp(`The Demo Bot is disabled \\(http://[^ ]+${vaPath}\\)`));
    expect(again).not.toContain('Start the demo bot');
    // The file the demo bot reads says the same.
    const file = fs.readFileSync(path.join(dir, 'demo-login.txt'), 'utf8');
    expect(file).toContain('The Demo Bot is disabled');
    expect(file).not.toContain('Start the demo bot');
  } finally {
    if (server) await stopProductionServer(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
