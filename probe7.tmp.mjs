import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto('http://localhost:3111/docs/admin-api');
await page.getByRole('heading', { level: 1 }).first().waitFor();
await page.waitForTimeout(6000);
console.log(await page.evaluate(() => [...document.querySelectorAll('button')].filter(b => !b.textContent.trim() && !b.getAttribute('aria-label') && !b.getAttribute('aria-labelledby') && !b.title).map(b => b.parentElement.parentElement.outerHTML.replace(/<svg[\s\S]*?<\/svg>/g,'').slice(0, 700))));
await browser.close();
