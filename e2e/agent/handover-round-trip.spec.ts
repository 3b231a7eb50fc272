import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { createBotClient, responseOf, verifyPulledEvent, verifyWebhook, type WebhookEvent } from '@/client';
import { E2E_ADMIN } from '../../playwright.config';
import { signIn } from '../admin/helpers';
import { expect, test } from '../fixtures';
import { personPage } from './person';

const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * A webhook bot written for this suite on the TypeScript client: "refund" asks the people's team to
 * approve (the amount editable), "quick refund" asks with a 10 s expiry, "agent please" hands over
 * with context; handover.requested hands over too; each approval's answer and a hand-back are
 * told to the customer.
 */
function handoverBot(baseURL: string, va: { api_key: string; signing_secret: string }, teamId: number) {
  const api = createBotClient({ baseUrl: baseURL, apiKey: va.api_key });
  /** The chats it handed over with context, in order. */
  const handedOver: string[] = [];
  const say = (chatId: string, key: string, text: string) =>
    api.messages.postMessage({ params: { chat_id: chatId }, headers: { 'idempotency-key': key }, body: { type: 'outbound', text } });
  const handle = async (id: string, event: WebhookEvent) => {
    const chatId = event.chat_id;
    // A new chat's first message comes in its chat.assigned; a hand-back's chat.assigned carries `handback`.
    if (event.event_type === 'message.received' || (event.event_type === 'chat.assigned' && !event.payload.handback)) {
      const text = event.payload.messages[0]?.text ?? '';
      if (!text) return;
      if (/agent please/i.test(text)) {
        await say(chatId, `${id}-say`, 'Connecting you with a person.');
        handedOver.push(chatId);
        responseOf(
          await api.chats.transferChat({
            params: { chat_id: chatId },
            body: {
              transfer: { teamid: teamId },
              handover: {
                reason: 'Parcel lost in transit',
                summary: 'Customer waited 9 days for parcel P-77; tracking stopped.',
                intent: 'parcel_claim',
                fields: { parcel: 'P-77', days_late: '9' },
              },
            },
          }),
        );
      } else if (/refund/i.test(text)) {
        responseOf(
          await api.approvals.requestApproval({
            params: { chat_id: chatId },
            body: {
              action: 'refund',
              summary: `Refund for order 8841 (${text})`,
              details: [
                { key: 'order_id', value: '8841', editable: false },
                { key: 'amount', value: '240 EUR', editable: true },
              ],
              expires_in_seconds: /quick/i.test(text) ? 10 : 600,
              team_id: teamId,
            },
          }),
        );
        await say(chatId, `${id}-ask`, 'Let me check that with a colleague.');
      } else await say(chatId, `${id}-ack`, `Bot heard: ${text}`);
    } else if (event.event_type === 'approval.decided') {
      const p = event.payload;
      await say(
        chatId,
        id,
        p.decision === 'approved' ? `Refund approved: ${p.details.amount}.` : `Refund rejected: ${p.comment ?? 'no reason given'}.`,
      );
    } else if (event.event_type === 'approval.expired') {
      await say(chatId, id, 'Nobody could confirm the refund in time.');
    } else if (event.event_type === 'handover.requested') {
      responseOf(
        await api.chats.transferChat({
          params: { chat_id: chatId },
          body: { transfer: { teamid: teamId }, handover: { reason: 'Asked for a person with the button' } },
        }),
      );
    } else if (event.event_type === 'chat.assigned' && event.payload.handback) {
      await say(chatId, id, `Bot is back. Note: ${event.payload.handback.note ?? 'none'}`);
    }
  };
  return { api, handle, handedOver };
}

/** The bot receiving its events by webhook. */
async function startHandoverBot(baseURL: string, va: { api_key: string; signing_secret: string }, teamId: number) {
  const { handle, handedOver } = handoverBot(baseURL, va, teamId);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const { id, event } = verifyWebhook(va.signing_secret, Buffer.concat(chunks).toString('utf8'), req.headers);
        await handle(id, event);
        res.writeHead(200).end();
      } catch {
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return { url, handedOver, close: () => new Promise((r) => server.close(r)) };
}

/** The same bot pulling its events (delivery mode `pull`): the event stream, verified, acknowledged. */
function startPullingBot(baseURL: string, va: { api_key: string; signing_secret: string }, teamId: number) {
  const { api, handle, handedOver } = handoverBot(baseURL, va, teamId);
  const stop = new AbortController();
  const loop = (async () => {
    for await (const item of api.streamEvents({ signal: stop.signal })) {
      const { id, event } = verifyPulledEvent(va.signing_secret, item);
      await handle(id, event).catch(() => {});
      await api.events.ackEvents({ body: { cursor: item.cursor } });
    }
  })().catch(() => {});
  const close = async () => {
    stop.abort();
    await loop;
  };
  return { url: '', handedOver, close };
}

async function setUp(request: APIRequestContext, baseURL: string, vaSettings: Record<string, unknown> = {}, pull = false) {
  expect((await request.post('/api/admin/login', { data: E2E_ADMIN })).status()).toBe(200);
  const s = suffix();
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const bots = await post('/teams', { name: `Handover bots ${s}`, auto_assign: true });
  const people = await post('/teams', { name: `Handover people ${s}`, auto_assign: false });
  const others = await post('/teams', { name: `Handover others ${s}`, auto_assign: false });
  const person = async (name: string, teamId: number) => {
    const user = await post('/users', {
      kind: 'agent',
      login_id: `${name}-${s}`,
      name: `${name} ${s}`,
      email: `${name}-${s}@example.test`,
      availability: 'available',
      team_ids: [teamId],
    });
    return (await post(`/users/${user.id}/invite`, {})).invite_url as string;
  };
  const one = await person('hand', people.id);
  const stranger = await person('elsewhere', others.id);
  const asset = await post('/assets', { channel: 'livechat', name: `Handover shop ${s}` });
  await post('/routing-rules', {
    name: `Handover ${s}`,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: bots.id,
  });
  const va = await post('/virtual-agents', {
    name: `Handover Bot ${s}`,
    description: 'hands over with context',
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    team_id: bots.id,
    fallback_team_id: people.id,
    ...vaSettings,
  });
  const bot = pull ? startPullingBot(baseURL, va, people.id) : await startHandoverBot(baseURL, va, people.id);
  if (!pull) expect((await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } })).status()).toBe(200);
  return { asset, va, people, one, stranger, bot };
}

async function write(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page.getByRole('log')).toContainText(text);
}

test('handover with context: the card before the transcript (workspace and console), never to the customer; approvals approved with an edit, rejected and expired', async ({
  request,
  browser,
  baseURL,
  page: adminPage,
}) => {
  const { asset, one, stranger, bot } = await setUp(request, baseURL!);
  const customer = await browser.newContext();
  const agent = await personPage(browser, one, baseURL!);
  const outsider = await personPage(browser, stranger, baseURL!);
  try {
    const page = await customer.newPage();
    await page.goto(`${baseURL}/chat/${asset.id}`);
    await write(page, 'hello');
    await expect(page.getByText('automated assistant')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Talk to a person' })).toBeVisible();

    // Approved, with the editable amount changed by the person: the bot keeps the chat.
    await write(page, 'refund please');
    await expect(page.getByRole('status').filter({ hasText: 'Waiting for a colleague to confirm…' })).toBeVisible();
    const ws = agent.page;
    const request1 = ws.getByRole('form', { name: /refund: Refund for order 8841 \(refund please\)/ });
    await expect(request1).toBeVisible();
    await expect(outsider.page.getByText('No requests waiting.')).toBeVisible();
    await request1.getByLabel('amount (editable)').fill('200 EUR');
    await request1.getByLabel('Comment for the bot (optional)').fill('box was fine');
    await request1.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('log')).toContainText('Refund approved: 200 EUR.');
    await expect(page.getByText('Waiting for a colleague to confirm…')).toHaveCount(0);

    // Rejected with a comment.
    await write(page, 'another refund');
    const request2 = ws.getByRole('form', { name: /another refund/ });
    await request2.getByLabel('Comment for the bot (optional)').fill('already refunded');
    await request2.getByRole('button', { name: 'Reject' }).click();
    await expect(page.getByRole('log')).toContainText('Refund rejected: already refunded.');

    // Expired: nobody decides within 10 s.
    await write(page, 'quick refund');
    await expect(page.getByText('Waiting for a colleague to confirm…')).toBeVisible();
    await expect(page.getByRole('log')).toContainText('Nobody could confirm the refund in time.', { timeout: 45_000 });
    await expect(page.getByText('Waiting for a colleague to confirm…')).toHaveCount(0);

    // Handover with context: the card is on the chat before the transcript.
    await write(page, 'agent please');
    await expect(page.getByRole('log')).toContainText('Your chat is being passed on');
    await ws.getByRole('button', { name: /Parcel lost in transit/ }).click();
    const card = ws.getByTestId('handover-card');
    await expect(card).toContainText('Customer waited 9 days for parcel P-77');
    await expect(card).toContainText('parcel_claim');
    await expect(card).toContainText('P-77');
    const cardBox = await card.boundingBox();
    const transcriptBox = await ws.getByRole('log', { name: 'Transcript' }).boundingBox();
    expect(cardBox!.y).toBeLessThan(transcriptBox!.y);
    // The customer never sees it.
    await expect(page.getByRole('log')).not.toContainText('Customer waited 9 days');
    // The console's chat page shows the card too.
    await signIn(adminPage, `/admin/chats/${bot.handedOver[0]}`);
    await expect(adminPage.getByTestId('handover-card')).toContainText('Parcel lost in transit');
  } finally {
    await Promise.all([customer.close(), agent.context.close(), outsider.context.close()]);
    await bot.close();
  }
});

test('"Talk to a person": the place in the queue live, the person by their chosen name, hand-back with a note, then the loop limit set in the console', async ({
  request,
  browser,
  baseURL,
  page: adminPage,
}) => {
  const { asset, va, one, bot } = await setUp(request, baseURL!);
  const first = await browser.newContext();
  const second = await browser.newContext();
  const agent = await personPage(browser, one, baseURL!);
  try {
    // The administrator sets the loop limit to 1 in the console's VA form.
    await signIn(adminPage, `/admin/virtual-agents/${va.id}`);
    await adminPage.getByLabel('Handovers per chat').fill('1');
    await adminPage.getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage.getByText('Changes saved.')).toBeVisible();

    const a = await first.newPage();
    const b = await second.newPage();
    for (const p of [a, b]) {
      await p.goto(`${baseURL}/chat/${asset.id}`);
      await write(p, 'hi there');
      await expect(p.getByRole('log')).toContainText('Bot heard: hi there');
    }
    for (const p of [a, b]) await p.getByRole('button', { name: 'Talk to a person' }).click();
    await expect(b.getByRole('status').filter({ hasText: 'You are number 2 in the queue for a person.' })).toBeVisible();
    await expect(a.getByRole('status').filter({ hasText: 'You are number 1 in the queue for a person.' })).toBeVisible();

    // The person picks the first chat: the second moves up, the first customer sees who answers.
    const ws = agent.page;
    // The name customers see, chosen by the person (the workspace API's display-name, with its session).
    const named = await ws.request.put('/api/agent/display-name', { data: { display_name: 'Robin' } });
    expect(named.status(), await named.text()).toBe(200);
    const waiting = ws.getByRole('button', { name: /customer asked for a person/ });
    await expect(waiting).toHaveCount(2);
    await waiting.first().click();
    await ws.getByRole('button', { name: 'Pick this chat' }).click();
    await expect(b.getByRole('status').filter({ hasText: 'You are number 1 in the queue for a person.' })).toBeVisible();
    await expect(a.getByText('Robin is answering', { exact: true })).toBeVisible();
    await expect(a.getByRole('log')).toContainText('A person has joined the chat. Robin is answering.');
    await expect(a.getByRole('button', { name: 'Talk to a person' })).toBeHidden();

    // The loop limit is 1: the workspace says why this chat cannot go back to the bot.
    await expect(ws.getByTestId('loop-limit')).toContainText('cannot go back');
    await expect(ws.getByRole('button', { name: 'Hand back to bot' })).toHaveCount(0);

    // With the limit raised again, the second chat can go back: a hand-back with a note reaches the
    // bot, which tells the customer; the widget then says an automated assistant answers.
    await adminPage.getByLabel('Handovers per chat').fill('3');
    await adminPage.getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage.getByText('Changes saved.').last()).toBeVisible();
    await waiting.first().click();
    await ws.getByRole('button', { name: 'Pick this chat' }).click();
    await expect(b.getByText('Robin is answering', { exact: true })).toBeVisible();
    await ws.getByLabel(/Note for/).fill('Parcel found, tell them');
    // Handed back, the chat is in the bot's team, outside the person's: the page does not ask for
    // it again (it would get 2085).
    const refused: string[] = [];
    ws.on('response', (r) => {
      if (r.status() === 404 && r.url().includes('/api/agent/')) refused.push(r.url());
    });
    await ws.getByRole('button', { name: 'Hand back to bot' }).click();
    await expect(ws.getByRole('status').filter({ hasText: /^Chat handed back to / })).toBeFocused();
    await expect(b.getByRole('log')).toContainText('Bot is back. Note: Parcel found, tell them');
    await expect(b.getByText('automated assistant')).toBeVisible();
    expect(refused, 'workspace requests refused after the hand-back').toEqual([]);
  } finally {
    await Promise.all([first.close(), second.close(), agent.context.close()]);
    await bot.close();
  }
});

test('a pulling bot: the approval is decided in the workspace and the bot, reading its event stream, answers; its handover shows the card', async ({
  request,
  browser,
  baseURL,
}) => {
  const { asset, one, bot } = await setUp(request, baseURL!, { delivery_mode: 'pull' }, true);
  const customer = await browser.newContext();
  const agent = await personPage(browser, one, baseURL!);
  try {
    const page = await customer.newPage();
    await page.goto(`${baseURL}/chat/${asset.id}`);
    await write(page, 'hello');
    await expect(page.getByRole('log')).toContainText('Bot heard: hello');
    await write(page, 'refund please');
    await expect(page.getByText('Waiting for a colleague to confirm…')).toBeVisible();
    const asked = agent.page.getByRole('form', { name: /refund please/ });
    await asked.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('log')).toContainText('Refund approved: 240 EUR.');
    await write(page, 'agent please');
    await agent.page.getByRole('button', { name: /Parcel lost in transit/ }).click();
    await expect(agent.page.getByTestId('handover-card')).toContainText('parcel_claim');
  } finally {
    await Promise.all([customer.close(), agent.context.close()]);
    await bot.close();
  }
});
