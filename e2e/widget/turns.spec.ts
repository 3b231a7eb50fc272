import type { APIRequestContext, Page } from '@playwright/test';
import { request as newRequest } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { expect, test } from '../fixtures';
import { startReceiver } from '../support';

/**
 * Turns (docs/guide/turns.md) as a customer in Chromium and a bot over real HTTP see them: a
 * webhook bot (a real receiver) and a pulling bot (`GET /events`), each behind the full-page widget.
 * The bot is played by the test, step by step, so each step is checked where it happens.
 */

type Kind = 'webhook' | 'pull';
type Settings = { turn_window_ms: number; on_new_turn: 'continue' | 'supersede' };
const PASSWORD = 'turns person password 1';
const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A livechat app whose chats go to a VA with `settings`, a person in its team, and the bot. */
async function setUp(request: APIRequestContext, kind: Kind, settings: Settings, baseURL: string) {
  expect((await request.post('/api/admin/login', { data: E2E_ADMIN })).status()).toBe(200);
  const s = suffix();
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const team = await post('/teams', { name: `Turns ${s}`, auto_assign: true });
  const asset = await post('/assets', { channel: 'livechat', name: `Turns shop ${s}` });
  await post('/routing-rules', {
    name: `Turns ${s}`,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: team.id,
  });
  // A person of the bot's team, not available, so that chats go to the bot until the person takes one.
  const user = await post('/users', {
    kind: 'agent',
    login_id: `turns-person-${s}`,
    name: `Turns Person ${s}`,
    availability: 'unavailable',
    team_ids: [team.id],
  });
  const invite = await post(`/users/${user.id}/invite`, { email: `turns-person-${s}@example.test` });
  const receiver = kind === 'webhook' ? await startReceiver() : undefined;
  const va = await post('/virtual-agents', {
    name: `Turns Bot ${s}`,
    description: 'answers in turns',
    webhook_url: receiver?.url ?? 'http://127.0.0.1:9/webhook',
    delivery_mode: kind === 'webhook' ? 'webhook' : 'pull',
    subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'],
    team_id: team.id,
    ...settings,
  });
  const auth = await request.post('/api/v1/authorize', { data: { api_key: va.api_key } });
  expect(auth.status()).toBe(200);
  const bot = new TestBot(request, (await auth.json()).response.access_token, receiver);
  return { asset, bot, invite: invite.invite_url as string, baseURL };
}

/** The bot: the events it received (from its receiver, or pulled), and its calls to the bot API. */
class TestBot {
  private pulled: any[] = [];
  private cursor: string | undefined;
  private seen = 0;
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
    private readonly receiver?: Awaited<ReturnType<typeof startReceiver>>,
  ) {}

  private async all(): Promise<any[]> {
    if (this.receiver) return this.receiver.received.map((r) => r.body);
    const res = await this.request.get('/api/v1/events', {
      headers: { access_token: this.token },
      params: { wait_seconds: 1, ...(this.cursor ? { after: this.cursor } : {}) },
    });
    expect(res.status()).toBe(200);
    const page = (await res.json()).response;
    this.cursor = page.next_cursor;
    this.pulled.push(...page.events.map((e: { body: string }) => JSON.parse(e.body)));
    return this.pulled;
  }

  /** The next event not yet taken, of `type` (others before it are passed over), waited for up to 20 s. */
  async next(type: string): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const events = await this.all();
      while (this.seen < events.length) {
        const e = events[this.seen++];
        if (e.event_type === type) return e;
      }
      if (Date.now() > deadline) throw new Error(`the bot received no ${type} in 20 s`);
      if (this.receiver) await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every event received so far of `type` (read again now). */
  async received(type: string): Promise<any[]> {
    return (await this.all()).filter((e) => e.event_type === type);
  }

  call(method: string, path: string, data?: unknown) {
    return this.request.fetch(`/api/v1${path}`, { method, headers: { access_token: this.token }, data });
  }

  close() {
    this.receiver?.close();
  }
}

const texts = (event: any) => event.payload.messages.map((m: { text: string }) => m.text);

/** The customer on the full-page chat; answers the chat's id once the bot holds it. */
async function openChat(page: Page, baseURL: string, assetId: number, bot: TestBot): Promise<string> {
  await page.goto(`${baseURL}/chat/${assetId}`);
  await say(page, 'Hello');
  const assigned = await bot.next('chat.assigned');
  return assigned.chat_id;
}

async function say(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page.locator('.msg.customer').filter({ hasText: text })).toHaveCount(1);
}

/**
 * Sends `text` and goes on typing at once, as a fast typist does: the key comes within the widget's
 * pause after a send, so the widget never says "stopped" and the turn stays open for the next line.
 */
async function sayAndGoOn(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  // The first key of the next line; one typed while the message was on its way stays in the box.
  await page.keyboard.type('a');
  await expect(page.locator('.msg.customer').filter({ hasText: text })).toHaveCount(1);
  await expect(box).toHaveValue('a');
}

/** A person of the team signs in through their invite (workspace API) and takes the chat. */
async function personTakes(baseURL: string, inviteUrl: string, chatId: string) {
  const person = await newRequest.newContext({ baseURL });
  try {
    const token = new URL(inviteUrl).hash.slice(1);
    expect((await person.post('/api/agent/invite/accept', { data: { token, password: PASSWORD } })).status()).toBe(200);
    const picked = await person.post(`/api/agent/chats/${chatId}/pick`);
    expect(picked.status(), await picked.text()).toBe(200);
  } finally {
    await person.dispose();
  }
}

for (const kind of ['webhook', 'pull'] as const) {
  test.describe(`turns with a ${kind} bot`, () => {
    test('a burst typed on is one turn with every fragment; relayed without a typing signal, one turn after the window', async ({
      request,
      page,
      baseURL,
    }) => {
      const { asset, bot } = await setUp(request, kind, { turn_window_ms: 1500, on_new_turn: 'continue' }, baseURL!);
      try {
        const chat = await openChat(page, baseURL!, asset.id, bot);
        await sayAndGoOn(page, 'my parcel');
        await sayAndGoOn(page, 'order 1042');
        await say(page, 'it never came');
        const turn = await bot.next('message.received');
        expect(texts(turn)).toEqual(['my parcel', 'order 1042', 'it never came']);
        expect(turn.payload.turn_id).toMatch(/^turn_/);

        // Relayed with no typing signal (an integration writing for the customer): the fixed window.
        for (const text of ['also the blue one', 'and a receipt']) {
          expect((await bot.call('POST', `/chats/${chat}/messages`, { type: 'inbound', text })).status()).toBe(201);
        }
        // Shown to the customer at once, while the bot's event waits for the window.
        await expect(page.getByRole('log')).toContainText('and a receipt');
        const relayed = await bot.next('message.received');
        expect(texts(relayed)).toEqual(['also the blue one', 'and a receipt']);
        expect(await bot.received('message.received')).toHaveLength(2);
      } finally {
        bot.close();
      }
    });

    test('a message during a slow stream with supersede withdraws the partial reply; its late chunk and a late reply are refused', async ({
      request,
      page,
      baseURL,
    }) => {
      const { asset, bot } = await setUp(request, kind, { turn_window_ms: 1500, on_new_turn: 'supersede' }, baseURL!);
      try {
        const chat = await openChat(page, baseURL!, asset.id, bot);
        await say(page, 'where is my order');
        const first = await bot.next('message.received');
        const opened = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          stream: true,
          text: 'Let me look',
          in_reply_to_turn: first.payload.turn_id,
        });
        expect(opened.status()).toBe(201);
        const transid = (await opened.json()).response.transid;
        expect((await bot.call('POST', `/chats/${chat}/messages/${transid}/chunks`, { seq: 1, text: ' it up for you' })).status()).toBe(
          200,
        );
        await expect(page.locator('.draft-text')).toHaveText('Let me look it up for you');

        await say(page, 'never mind, cancel it');
        await expect(page.locator('.msg.withdrawn')).toContainText('Reply withdrawn');
        await expect(page.getByText('Let me look')).toHaveCount(0);

        const late = await bot.call('POST', `/chats/${chat}/messages/${transid}/chunks`, { seq: 2, text: ' and more' });
        expect(late.status()).toBe(409);
        expect((await late.json()).status_code).toBe(2101);
        const lateReply = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          text: 'Your order is on its way',
          in_reply_to_turn: first.payload.turn_id,
        });
        expect(lateReply.status()).toBe(409);
        expect((await lateReply.json()).status_code).toBe(2100);

        const second = await bot.next('message.received');
        expect(texts(second)).toEqual(['never mind, cancel it']);
        expect(second.payload.supersedes_turn).toBe(first.payload.turn_id);
        const answer = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          text: 'Cancelled.',
          in_reply_to_turn: second.payload.turn_id,
        });
        expect(answer.status()).toBe(201);
        await expect(page.locator('.msg.business').filter({ hasText: 'Cancelled.' })).toHaveCount(1);
        await expect(page.getByText('Your order is on its way')).toHaveCount(0);
      } finally {
        bot.close();
      }
    });

    test('a person taking over mid-stream supersedes the bot: the partial reply is withdrawn, its next chunk refused (2043)', async ({
      request,
      page,
      baseURL,
    }) => {
      const { asset, bot, invite } = await setUp(request, kind, { turn_window_ms: 1500, on_new_turn: 'continue' }, baseURL!);
      try {
        const chat = await openChat(page, baseURL!, asset.id, bot);
        await say(page, 'I want a refund');
        const turn = await bot.next('message.received');
        const opened = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          stream: true,
          text: 'Refunds take',
          in_reply_to_turn: turn.payload.turn_id,
        });
        expect(opened.status()).toBe(201);
        const transid = (await opened.json()).response.transid;
        await expect(page.locator('.draft-text')).toHaveText('Refunds take');

        await personTakes(baseURL!, invite, chat);
        await expect(page.locator('.msg.withdrawn')).toContainText('Reply withdrawn');
        await bot.next('chat.unassigned');
        // The chat is no longer the bot's: its next chunk is refused as after any handover.
        const late = await bot.call('POST', `/chats/${chat}/messages/${transid}/chunks`, { seq: 1, text: ' three days' });
        expect(late.status()).toBe(403);
        expect((await late.json()).status_code).toBe(2043);
        await expect(page.getByText('Refunds take')).toHaveCount(0);
      } finally {
        bot.close();
      }
    });

    test('with continue, a late reply to an earlier turn is accepted, shown, and marked stale', async ({ request, page, baseURL }) => {
      const { asset, bot } = await setUp(request, kind, { turn_window_ms: 1500, on_new_turn: 'continue' }, baseURL!);
      try {
        const chat = await openChat(page, baseURL!, asset.id, bot);
        await say(page, 'first question');
        const first = await bot.next('message.received');
        await say(page, 'second question');
        const second = await bot.next('message.received');
        expect(second.payload.turn_id).not.toBe(first.payload.turn_id);
        expect(second.payload.supersedes_turn).toBeUndefined();

        const late = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          text: 'About your first question',
          in_reply_to_turn: first.payload.turn_id,
        });
        expect(late.status()).toBe(201);
        const message = (await late.json()).response;
        expect(message.stale).toBe(true);
        expect(message.in_reply_to_turn).toBe(first.payload.turn_id);
        await expect(page.locator('.msg.business').filter({ hasText: 'About your first question' })).toHaveCount(1);

        const current = await bot.call('POST', `/chats/${chat}/messages`, {
          type: 'outbound',
          text: 'About your second question',
          in_reply_to_turn: second.payload.turn_id,
        });
        expect((await current.json()).response.stale).toBe(false);
      } finally {
        bot.close();
      }
    });
  });
}
