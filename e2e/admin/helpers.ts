import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { auditBothWidths, DESKTOP } from './axe';

export { DESKTOP } from './axe';

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

/**
 * The page at laptop and phone widths: `visible` must show at each width, axe finds no WCAG 2.1
 * A/AA violation at each, and a full-page screenshot is kept under test-results/screens.
 */
export async function screens(page: Page, name: string, visible: Locator) {
  await page.mouse.move(0, 0);
  await auditBothWidths(page, name, () => expect(visible).toBeVisible());
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
