import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../servers';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The standard the console is held to: WCAG 2.1 levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Known exceptions: each names the rule, where it applies (a CSS selector excluded from that
 * rule only) and why it is accepted. Keep this list short and the reasons honest; docs/reference/accessibility.md
 * lists the same ones.
 */
const EXCEPTIONS: { rule: string; selector: string; reason: string }[] = [];

type Violation = { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] };

function describe(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
}

type Found = Violation & { tags: string[] };

/** axe's WCAG 2.2 target-size rule, which the console walk checks at phone width (e2e/admin/reflow.ts). */
export const TARGET_SIZE_RULE = 'target-size';

/** What the target-size rule found, one line per node. */
export function describeTargets(found: Violation[]): string[] {
  return found.flatMap((v) => v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`));
}

/**
 * An axe run on the page as it is. What it reports of the rules' failures is unchanged; two things
 * cost less:
 * - A page of one frame (every page the tests check) is checked with `axe.run` in the page itself.
 *   The builder's default runs the page in parts and joins them in a new blank page, which opens a
 *   page, loads axe a second time and carries every node's result across twice, each run. A page
 *   with frames keeps the default, which also checks frames from other origins.
 * - Only the failures are written out in full (`resultTypes`): axe then builds a selector for the
 *   nodes that failed a rule, not for each node every rule passed, which the tests never read.
 */
export function axeBuilder(page: Page, options: Parameters<AxeBuilder['options']>[0] = {}): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1).options({ ...options, resultTypes: ['violations'] });
}

/**
 * One axe run over the standard and best practice (axe is the slow part of the walk), split after;
 * with `targets`, the target-size rule runs in the same pass (each run has a cost of its own before
 * any rule: axe loaded and reading the page).
 */
async function scan(page: Page, targets: boolean): Promise<{ violations: Found[]; advice: Found[]; small: Found[] }> {
  // Colours are read as drawn: a bubble still fading in (the widget's 0.15 s appear) read as a
  // contrast failure in CI. The page's running animations end first (an endless one is not waited on).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Rules with exceptions run separately so the exception covers only its own selector; a rule
  // outside the tags is added by enabling it (axe runs the tags' rules plus those enabled).
  const rules: Record<string, { enabled: boolean }> = {};
  for (const e of EXCEPTIONS) rules[e.rule] = { enabled: false };
  if (targets) rules[TARGET_SIZE_RULE] = { enabled: true };
  const main = (await axeBuilder(page, { runOnly: { type: 'tag', values: [...WCAG_TAGS, 'best-practice'] }, rules }).analyze())
    .violations as Found[];
  const extra: Found[] = [];
  for (const e of EXCEPTIONS) {
    const res = await axeBuilder(page).withRules([e.rule]).exclude(e.selector).analyze();
    extra.push(...(res.violations as Found[]));
  }
  const all = [...main, ...extra];
  const small = all.filter((v) => v.id === TARGET_SIZE_RULE);
  const rest = all.filter((v) => v.id !== TARGET_SIZE_RULE);
  const counts = (v: Found) => v.tags.some((t) => WCAG_TAGS.includes(t));
  return { violations: rest.filter(counts), advice: rest.filter((v) => !counts(v)), small };
}

/**
 * Runs axe on the page as it is now, at the current viewport: any WCAG 2.1 A/AA violation fails
 * the test; best-practice findings are attached to the report without failing it. With `targets`
 * the same run checks pointer target sizes too (`expectTargetSizes` in reflow.ts says what counts).
 */
export async function expectAccessible(page: Page, state: string, info: TestInfo = test.info(), soft = false, targets = false) {
  const size = page.viewportSize();
  const label = `${state} @${size?.width ?? '?'}px`;
  const { violations, advice, small } = await scan(page, targets);
  if (advice.length) await info.attach(`best-practice ${label}`, { body: describe(advice), contentType: 'text/plain' });
  (soft ? expect.soft : expect)(violations, `axe WCAG 2.1 A/AA violations on ${label}:\n${describe(violations)}`).toEqual([]);
  if (targets) expect.soft(describeTargets(small), `${label}: targets smaller than 24x24`).toEqual([]);
}

/**
 * The page at laptop and phone widths: axe at each, and a screenshot at each width kept under
 * test-results/screens for review. `ready` is something visible that proves the state is drawn.
 */
export async function auditBothWidths(page: Page, state: string, ready: () => Promise<void>) {
  const hideToasts = '.toasts { display: none !important; }';
  for (const [width, size] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await ready();
    await expectAccessible(page, state);
    await page.screenshot({ path: `test-results/screens/${state}-${width}.png`, fullPage: true, style: hideToasts });
  }
  await page.setViewportSize(DESKTOP);
}
