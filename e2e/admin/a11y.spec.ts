import { test } from '../fixtures';
import { DESKTOP, expectAccessible, PHONE } from './axe';
import { walkConsoleStates } from './console-states';

test('every console page and the states a user reaches pass axe (WCAG 2.1 A/AA) at laptop and phone widths', async ({ page, request }) => {
  test.setTimeout(900_000);
  await page.setViewportSize(DESKTOP);
  await walkConsoleStates(page, request, async (state, ready, { phoneOnly = false } = {}) => {
    for (const size of phoneOnly ? [PHONE] : [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await ready();
      await expectAccessible(page, state, test.info(), true);
    }
    await page.setViewportSize(DESKTOP);
  });
});

// /docs (the guide and both references) has its own axe walk at both widths: e2e/admin/docs.spec.ts.
