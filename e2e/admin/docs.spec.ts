import type { Page } from '@playwright/test';
import { expect, test } from '../servers';
import { DESKTOP, expectAccessible, PHONE } from './axe';

/**
 * Console errors (CSP refusals among them: "Refused to load …"), page errors and failed loads.
 * A failed load is counted by its answer, with its URL; the console's own line for it says no URL
 * and also comes for the browser's favicon probe, which the site does not serve.
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`);
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  // A request the page's own navigation cut short (net::ERR_ABORTED: the next `goto` while a
  // prefetch was on its way) is no fault of the page; a broken link answers an error status above.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`failed: ${r.url()}`);
  });
  return errors;
}

test('the guide renders from docs/guide, with the contract filled in and working links', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize(DESKTOP);
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1, name: 'Build a bot' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Guide' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  await page.getByRole('navigation', { name: 'Guide' }).getByRole('link', { name: 'Events', exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/guide\/events$/);
  // The example bodies come from the OpenAPI document's examples, not from the Markdown.
  await expect(page.locator('pre').filter({ hasText: '"event_type": "chat.unassigned"' })).toBeVisible();

  // The website owner's page: in the guide's side list, with the embed snippet and the hosted page.
  await page.getByRole('navigation', { name: 'Guide' }).getByRole('link', { name: 'The chat widget on a website', exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/guide\/widget$/);
  await expect(page.getByRole('heading', { level: 1, name: 'The chat widget on a website' })).toBeVisible();
  await expect(page.locator('pre').filter({ hasText: '/widget.js?app=' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The hosted page' })).toBeVisible();

  await page.goto('/docs/guide/limits-and-codes');
  const codes = page.getByRole('table').filter({ hasText: 'status_code' }).last();
  await expect(codes.getByRole('row').filter({ hasText: '2013' })).toContainText('Idempotency-Key');

  // A link between Markdown files (`idempotency.md`) leads to the page on the site.
  await page.goto('/docs/guide/delivery');
  await page.getByRole('main').getByRole('link', { name: 'Idempotency' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Idempotency' })).toBeVisible();

  expect((await page.request.get('/docs/guide/no-such-page')).status()).toBe(404);
  expect(errors).toEqual([]);
});

for (const [path, title, heading, operation] of [
  ['/docs/bot-api', 'Bot API reference', 'VA Chat API', 'Exchange the API key for an access token'],
  ['/docs/admin-api', 'Admin API reference', 'VA Chat Admin API', 'Issue a new API key'],
] as const) {
  test(`${title}: drawn by the renderer under the page CSP, nothing loaded from elsewhere`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.setViewportSize(DESKTOP);
    await page.goto(path);
    // The renderer parses the whole document in the browser first: slow on a busy machine.
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(operation).first()).toBeAttached();
    // The bot reference's introduction carries the catalogue of status codes.
    if (path === '/docs/bot-api')
      await expect(page.getByText('Idempotency-Key already used with a different request').first()).toBeAttached();
    // The server the samples are built on is the origin the page came from (its PORT), not the document's default.
    const origin = new URL(page.url()).origin;
    await expect(page.getByText(origin, { exact: true }).first()).toBeAttached();
    await expect(page.getByText('localhost:3000')).toHaveCount(0);
    expect([...origins]).toEqual([new URL(page.url()).origin]);
    expect(errors).toEqual([]);
  });
}

test('the docs pages pass axe (WCAG 2.1 A/AA) at laptop and phone widths', async ({ page }) => {
  test.setTimeout(480_000);
  for (const [path, ready] of [
    ['/docs', () => expect(page.getByRole('heading', { level: 1, name: 'Build a bot' })).toBeVisible()],
    ['/docs/guide/events', () => expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible()],
    ['/docs/bot-api', () => expect(page.getByRole('heading', { level: 1, name: 'VA Chat API' })).toBeVisible({ timeout: 60_000 })],
    ['/docs/admin-api', () => expect(page.getByRole('heading', { level: 1, name: 'VA Chat Admin API' })).toBeVisible({ timeout: 60_000 })],
  ] as const) {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto(path);
      await ready();
      await expectAccessible(page, path, test.info(), true);
    }
  }
});
