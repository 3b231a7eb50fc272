import { expect, type Page } from '@playwright/test';
import { axeBuilder, describeTargets, TARGET_SIZE_RULE } from './axe';

/**
 * What sticks out past the right edge of the viewport, in the page as drawn now. The document must
 * not scroll sideways (WCAG 1.4.10 Reflow); content may be wider only inside an element that clips
 * it (an ellipsis) or scrolls it, and a region that scrolls must be reachable by keyboard
 * (focusable itself, like the console's table regions and code blocks).
 */
async function overflowAt(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const found: string[] = [];
    const name = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id}${cls}> "${text}"`;
    };
    if (root.scrollWidth > width) found.push(`the document is ${root.scrollWidth}px wide in a ${width}px viewport`);
    const reported = new Set<Element>();
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= width + 1) continue;
      let holder: Element | null = null;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') {
          holder = up;
          break;
        }
      }
      if (!holder) {
        // Only the outermost element that sticks out is named: its children stick out with it.
        if (!el.parentElement || !reported.has(el.parentElement)) found.push(`${name(el)} reaches ${Math.round(box.right)}px`);
        reported.add(el);
        continue;
      }
      const style = getComputedStyle(holder);
      const scrolls = (style.overflowX === 'auto' || style.overflowX === 'scroll') && holder.scrollWidth > holder.clientWidth;
      if (scrolls && (holder as HTMLElement).tabIndex < 0 && !reported.has(holder)) {
        reported.add(holder);
        found.push(`${name(holder)} scrolls sideways but cannot be reached by keyboard`);
      }
    }
    return found;
  });
}

/**
 * Fails (softly, so one walk reports every page) when the page still scrolls sideways a few
 * seconds after the viewport changed. Some parts lay themselves out again only after a resize is
 * observed (the delivery charts measure their box in a ResizeObserver callback and render again),
 * which on a busy machine can come after the first look; what counts is where the page settles.
 */
export async function expectReflows(page: Page, state: string) {
  const width = page.viewportSize()?.width;
  await expect
    .configure({ soft: true })
    .poll(() => overflowAt(page), { message: `${state} @${width}px sticks out sideways`, timeout: 5_000 })
    .toEqual([]);
}

/**
 * Pointer targets at least 24 by 24 CSS pixels, or spaced so a 24 px circle around each does not
 * touch another (WCAG 2.2 2.5.8, axe's `target-size`); links inside running text are exempt.
 * A page that axe checks anyway at this width checks this in the same run (`expectAccessible`).
 */
export async function expectTargetSizes(page: Page, state: string) {
  const res = await axeBuilder(page).withRules([TARGET_SIZE_RULE]).analyze();
  expect.soft(describeTargets(res.violations), `${state} @${page.viewportSize()?.width}px: targets smaller than 24x24`).toEqual([]);
}
