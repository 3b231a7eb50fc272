import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto('http://localhost:3111/docs/admin-api');
await page.getByRole('heading', { level: 1 }).first().waitFor();
console.log(await page.evaluate(() => [...document.querySelectorAll('button[aria-controls="scalar-refs-0-75"], button[aria-controls="scalar-refs-0-87"]')].map(b => b.parentElement.parentElement.outerHTML.replace(/<svg[\s\S]*?<\/svg>/g,'').slice(0, 900))));
console.log(await page.evaluate(() => { const e = document.querySelector('.endpoints'); return e.parentElement.outerHTML.replace(/<svg[\s\S]*?<\/svg>/g,'').slice(0, 600) + ' || ' + getComputedStyle(e).overflow + ' ' + getComputedStyle(e).maxHeight; }));
console.log(await page.evaluate(() => { const e = document.querySelector('.language-json'); return e ? e.outerHTML.slice(0, 200) + ' || ' + getComputedStyle(e).overflow + ' | parent ' + e.parentElement.tagName + ' ' + e.parentElement.className + ' ' + getComputedStyle(e.parentElement).overflow : 'none'; }));
await browser.close();
