import type { Page } from '@playwright/test';
import { GUIDE_PAGES, guideHref } from '@/app/docs/_guide/pages';
import { expect, test } from '../fixtures';
import { DESKTOP, expectAccessible, PHONE } from './axe';
import { walkConsoleStates } from './console-states';
import { expectReflows, expectTargetSizes } from './reflow';

/** The narrowest width WCAG 1.4.10 asks content to reflow to: a 1280 px screen at 400 % zoom. */
const NARROWEST = { width: 320, height: 720 };
/** A 1280 px screen at 200 % zoom: the console switches to its narrow layout here too. */
const ZOOMED = { width: 640, height: 400 };
const hideToasts = '.toasts { display: none !important; }';

/**
 * One state of a page, checked at every width in one visit: axe (WCAG 2.1 A/AA; best practice
 * attached to the report) at laptop (1280 px) and phone (390 px) widths; at phone width pointer
 * targets large enough; nothing sticking out sideways at 390 px, at 320 px and at 640 px (a
 * 1280 px screen at 400 % and 200 % zoom); full-page screenshots at 1280 and 390 px kept under
 * test-results/screens/walk for review. `phoneOnly`: the state exists at phone width only (the
 * open menu); `axe: false` where another spec runs axe (the guide's pages, docs.spec.ts).
 */
async function checkState(
  page: Page,
  state: string,
  ready: () => Promise<void>,
  { phoneOnly = false, axe = true }: { phoneOnly?: boolean; axe?: boolean } = {},
) {
  await page.mouse.move(0, 0);
  for (const [size, label] of [
    [DESKTOP, '1280'],
    [PHONE, '390'],
    [NARROWEST, '320'],
    [ZOOMED, '640'],
  ] as const) {
    if (phoneOnly && size === DESKTOP) continue;
    await page.setViewportSize(size);
    await ready();
    // At phone width, one axe run checks the standard and the target sizes.
    if (axe && (size === DESKTOP || size === PHONE)) await expectAccessible(page, state, test.info(), true, size === PHONE);
    if (size !== DESKTOP) await expectReflows(page, state);
    if (size === PHONE && !axe) await expectTargetSizes(page, state);
    if (size === PHONE || size === DESKTOP) {
      await page.screenshot({ path: `test-results/screens/walk/${state}-${label}.png`, fullPage: true, style: hideToasts });
    }
  }
  await page.setViewportSize(DESKTOP);
}

// The two walks share nothing, so they may run on two workers side by side (E2E_WORKERS=2).
test.describe.configure({ mode: 'parallel' });

test('every console page and state a user reaches passes axe at laptop and phone widths, fits the screen down to 320 px, and has large enough targets', async ({
  page,
  request,
}) => {
  test.setTimeout(900_000);
  await page.setViewportSize(DESKTOP);
  await walkConsoleStates(page, request, (state, ready, options) => checkState(page, state, ready, options));
});

test('every page of the guide fits the screen down to 320 px and has large enough targets (axe: docs.spec.ts)', async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize(DESKTOP);
  for (const { slug, title } of GUIDE_PAGES) {
    await page.goto(guideHref(slug));
    await checkState(page, `docs-${slug}`, () => expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible(), {
      axe: false,
    });
  }
});
