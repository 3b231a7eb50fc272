import type { Page } from '@playwright/test';
import { expect, test } from '../servers';
import { startReceiver } from '../support';
import { screens, setUpBot, signIn, uniqueSuffix } from './helpers';

/**
 * Pastes an id into the header's "Find by id", as a support engineer would, and waits for the page
 * it leads to (each step of the test lands on another address than the step before).
 */
async function findById(page: Page, id: string, lands: RegExp) {
  const box = page.getByRole('searchbox', { name: /Find by id/ });
  await box.fill(id);
  await box.press('Enter');
  await expect(page).toHaveURL(lands);
}

const focusOn = (chatId: string, target: string) => new RegExp(`/admin/chats/${chatId}\\?focus=${encodeURIComponent(target)}$`);

test('every id a bot developer quotes leads to the chat, message, event or request it names', async ({ page, request, context }) => {
  // Eight look-ups and two accessibility audits at two widths: longer than one page's budget on a shared machine.
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    await signIn(page, '/admin/chats');
    const { asset, va } = await setUpBot(page.request, receiver.url);
    const otherTeam = (
      await (await page.request.post('/api/admin/teams', { data: { name: `Humans ${uniqueSuffix()}`, auto_assign: false } })).json()
    ).response;
    const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
    const headers = { access_token: token };
    const suffix = uniqueSuffix();
    const created = await request.post('/api/v1/chats', {
      headers: { ...headers, 'Idempotency-Key': `create-${suffix}` },
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: `visitor-${suffix}`, name: 'Tracy Trace' },
        assignee: va.login_id,
        alias_id: `CRM-${suffix}`,
      },
    });
    expect(created.status()).toBe(201);
    const chat = (await created.json()).response;
    const reply = await request.post(`/api/v1/chats/${chat.chat_id}/messages`, {
      headers,
      data: { type: 'outbound', text: 'How can I help?' },
    });
    const transid = (await reply.json()).response.transid;
    // The bot's PATCH names a team the chat is not in: 2031, the ticket a bot developer would file.
    const patch = await request.patch(`/api/v1/chats/${chat.chat_id}`, {
      headers: { ...headers, team_id: String(otherTeam.id) },
      data: { tags: ['billing'] },
    });
    expect((await patch.json()).status_code).toBe(2031);
    const patchTrxid = patch.headers().trxid;
    const teams = await request.get('/api/v1/teams', { headers });
    const teamsTrxid = teams.headers().trxid;
    const [delivery] = await receiver.waitFor(1);
    const transactionId = delivery.headers['webhook-id'] as string;
    // The log is written in batches a moment after the answers: wait until the last call is in it.
    await expect
      .poll(async () => (await (await page.request.get(`/api/admin/trace?id=${teamsTrxid}`)).json()).response.matches.length, {
        timeout: 10_000,
      })
      .toBe(1);

    const chatPage = new RegExp(`/admin/chats/${chat.chat_id}$`);
    await findById(page, `CRM-${suffix}`, chatPage);
    await expect(page.getByRole('heading', { name: 'Chat with Tracy Trace' })).toBeVisible();

    await findById(page, transid, focusOn(chat.chat_id, `message:${transid}`));
    const message = page.locator(`[data-transid="${transid}"]`);
    await expect(message).toHaveAttribute('aria-current', 'true');
    await expect(message).toBeFocused();
    await expect(message).toContainText('How can I help?');

    await findById(page, chat.chat_id, chatPage);
    await expect(page.getByRole('heading', { name: 'Chat with Tracy Trace' })).toBeVisible();

    await findById(page, transactionId, /focus=event%3A\d+$/);
    const event = page.locator(`[data-transaction-id="${transactionId}"]`);
    await expect(event).toHaveAttribute('aria-current', 'true');
    await expect(event).toBeFocused();
    await expect(event.getByTestId('attempt')).toHaveCount(1);
    await expect(event.getByTestId('attempt')).toContainText('HTTP 200');

    await findById(page, patchTrxid, new RegExp(`focus=request%3A${patchTrxid}$`));
    const patchRow = page.locator(`[data-testid="bot-request"][data-trxid="${patchTrxid}"]`);
    await expect(patchRow).toHaveAttribute('aria-current', 'true');
    await expect(patchRow).toBeFocused();
    await expect(patchRow).toContainText(`PATCH by ${va.login_id} → 2031`);
    await expect(patchRow).toContainText('Given chat ID does not exist');
    await screens(page, 'chat-trace-request', patchRow);

    // Copy buttons give the exact id.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const copy = event.getByRole('button', { name: /transaction_id of event/ });
    await expect(copy).toHaveText(/^Copy/);
    await copy.click();
    await expect(copy).toHaveText(/^Copied/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(transactionId);

    // The Idempotency-Key leads to the request that carried it (another request row than the PATCH's).
    const keyLink = (await (await page.request.get(`/api/admin/trace?id=create-${suffix}`)).json()).response.matches[0].link;
    await findById(page, `create-${suffix}`, new RegExp(`${keyLink.replace(/[?]/g, '\\?')}$`));
    const createRow = page.locator('[data-testid="bot-request"][aria-current="true"]');
    await expect(createRow).toContainText(`POST by ${va.login_id} → 4302`);

    // A call about no chat opens the VA's request log at that call.
    await findById(page, teamsTrxid, new RegExp(`/admin/virtual-agents/${va.id}\\?trxid=${teamsTrxid}$`));
    const teamsRow = page.locator(`[data-testid="bot-request"][data-trxid="${teamsTrxid}"]`);
    await expect(teamsRow).toHaveAttribute('aria-current', 'true');
    await expect(teamsRow).toContainText(`GET by ${va.login_id} → 4301`);

    // The filters are checked as the API checks them: a status_code that is not a number is refused in words.
    const code = page.getByLabel('status_code', { exact: true });
    await code.fill('abc');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('The status_code must be a number.')).toBeVisible();
    await expect(code).toBeFocused();
    await code.fill('');

    // The VA's request log, filtered to failures.
    await page.getByLabel('trxid', { exact: true }).fill('');
    await page.getByLabel('Outcome', { exact: true }).selectOption('failure');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.locator('[data-testid="bot-request"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="bot-request"]')).toContainText('2031');
    await screens(page, 'va-request-log', page.locator('[data-testid="bot-request"]'));

    await findById(page, `nothing-${suffix}`, /\/admin\/trace\?id=nothing-/);
    await expect(page.locator('#main').getByRole('alert')).toContainText('Nothing of this account has this id');
  } finally {
    await receiver.close();
  }
});
