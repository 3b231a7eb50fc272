import type { Page } from '@playwright/test';
import { GUIDE_PAGES, guideHref } from '@/app/docs/_guide/pages';
import { expect, test } from '../fixtures';
import { DESKTOP, PHONE } from './axe';
import { walkConsoleStates } from './console-states';
import { expectReflows, expectTargetSizes } from './reflow';

/** The narrowest width WCAG 1.4.10 asks content to reflow to: a 1280 px screen at 400 % zoom. */
const NARROWEST = { width: 320, height: 720 };
/** A 1280 px screen at 200 % zoom: the console switches to its narrow layout here too. */
const ZOOMED = { width: 640, height: 400 };
const hideToasts = '.toasts { display: none !important; }';

/**
 * One state of a page at phone width (390 px): nothing sticks out sideways, pointer targets are
 * large enough, and a full-page screenshot is kept under test-results/screens for review; then
 * the same reflow check at 320 px and at 640 px (200 % zoom), and a laptop-width screenshot beside
 * the phone one.
 */
async function phoneState(page: Page, state: string, ready: () => Promise<void>) {
  await page.mouse.move(0, 0);
  for (const [size, label] of [
    [PHONE, '390'],
    [NARROWEST, '320'],
    [ZOOMED, '640'],
    [DESKTOP, '1280'],
  ] as const) {
    await page.setViewportSize(size);
    await ready();
    if (size !== DESKTOP) await expectReflows(page, state);
    if (size === PHONE) await expectTargetSizes(page, state);
    if (size === PHONE || size === DESKTOP) {
      await page.screenshot({ path: `test-results/screens/phone-walk/${state}-${label}.png`, fullPage: true, style: hideToasts });
    }
  }
  await page.setViewportSize(PHONE);
}

test('at phone width every console page and state fits the screen: no sideways scrolling, targets large enough', async ({
  page,
  request,
}) => {
  test.setTimeout(900_000);
  await page.setViewportSize(PHONE);
  await walkConsoleStates(page, request, (state, ready) => phoneState(page, state, ready));
  for (const { slug, title } of GUIDE_PAGES) {
    await page.goto(guideHref(slug));
    await phoneState(page, `docs-${slug}`, () => expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible());
  }
});
