import AxeBuilder from '@axe-core/playwright';
import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ctx = await browser.newContext(); const page = await ctx.newPage();
for (const p of ['/docs', '/docs/guide/events', '/docs/guide/limits-and-codes', '/docs/bot-api', '/docs/admin-api']) {
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.goto('http://localhost:3111' + p);
    if (p.includes('api')) await page.getByRole('heading', { level: 1 }).first().waitFor();
    const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    console.log(p, size.width, r.violations.length);
    for (const v of r.violations) console.log('  ', v.id, v.impact, v.nodes.length, JSON.stringify(v.nodes.slice(0, 3).map((n) => [n.target, n.failureSummary?.slice(0, 200)])));
  }
}
await browser.close();
