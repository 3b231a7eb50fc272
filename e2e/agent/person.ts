import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The password every invited person of the browser tests sets. */
export const PERSON_PASSWORD = 'quiet harbour lantern seventeen';

/** Sets the password on the invite link's page (`page` at that link) and signs in to the workspace. */
export async function acceptInvite(page: Page, inviteUrl: string, baseURL: string): Promise<void> {
  const url = new URL(inviteUrl);
  await page.goto(`${baseURL}${url.pathname}${url.hash}`);
  await page.getByLabel('New password').fill(PERSON_PASSWORD);
  await page.getByLabel('Repeat the password').fill(PERSON_PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
}

/** A browser context of its own for a person, signed in to the workspace through their invite. */
export async function personPage(browser: Browser, inviteUrl: string, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await acceptInvite(page, inviteUrl, baseURL);
  await expect(page).toHaveURL(/\/agent$/);
  await expect(page.getByRole('heading', { name: 'Agent workspace', level: 1 })).toBeVisible();
  return { context, page };
}
