import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** Signs in through the form; the session cookie then also serves `page.request`. */
export async function signIn(page: Page, next = '/admin/chats') {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/admin/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[?]/g, '\\?')}$`));
}

/** Full-page screenshots at laptop and phone widths, kept under test-results/screens. */
export async function screens(page: Page, name: string) {
  // Toasts come and go with each save; the pages are what is being looked at.
  const style = '.toasts { display: none !important; }';
  await page.setViewportSize(DESKTOP);
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.screenshot({ path: `test-results/screens/${name}-1280.png`, fullPage: true, style });
  await page.setViewportSize(PHONE);
  // Charts and wrapped layouts settle after the resize.
  await page.waitForTimeout(300);
  await page.screenshot({ path: `test-results/screens/${name}-390.png`, fullPage: true, style });
  await page.screenshot({ path: `test-results/screens/${name}-390-top.png`, style });
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(150);
}

/**
 * A team, a livechat asset and a VA pointing at `webhookUrl`, made through the admin API with the
 * page's session (`page.request`), so the test signs in once: sign-ins are rate limited per address.
 */
export async function setUpBot(request: APIRequestContext, webhookUrl: string) {
  const suffix = uniqueSuffix();
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    if (res.status() !== 201) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()).response;
  };
  const team = await post('/teams', { name: `Bots ${suffix}`, auto_assign: false });
  const asset = await post('/assets', { channel: 'livechat', name: `Widget ${suffix}` });
  const va = await post('/virtual-agents', {
    name: `E2E Bot ${suffix}`,
    description: 'end-to-end bot',
    webhook_url: webhookUrl,
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
    team_id: team.id,
  });
  return { team, asset, va };
}
