import { startBot } from '../../examples/bot/bot';
import { expect, test } from '../servers';
import { adminLogin } from '../support';

/**
 * The example bot's log, kept quiet and printed only when the test fails: a bot that acts after
 * answering its delivery (the AI SDK mode) reports a refused call nowhere else.
 */
const botLog = (() => {
  let lines: string[] = [];
  return {
    log: (line: string, fields?: Record<string, unknown>) => {
      lines.push(`${new Date().toISOString()} ${line} ${JSON.stringify(fields ?? {})}`);
    },
    reset: () => {
      lines = [];
    },
    lines: () => lines,
  };
})();

test.beforeEach(() => botLog.reset());
test.afterEach(() => {
  const info = test.info();
  if (info.status !== info.expectedStatus) console.log(`the example bot's log:\n${botLog.lines().join('\n')}`);
});

type Message = { type: string; text?: string; author: string | null };

type Request = Parameters<Parameters<typeof test>[2]>[0]['request'];

/**
 * A bots' team, a people's team, a livechat asset and a VA of the example bot whose webhook points
 * where nothing listens (port 9), so events before the bot starts are not delivered; with its
 * token and a call that opens a chat assigned to it.
 */
async function exampleBotTenant(request: Request, label: string) {
  const suffix = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await adminLogin(request);
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/admin${path}`, { data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).response;
  };
  const bots = await post('/teams', { name: `${label} bots ${suffix}`, auto_assign: false });
  const people = await post('/teams', { name: `${label} people ${suffix}`, auto_assign: false });
  const asset = await post('/assets', { channel: 'livechat', name: `${label} widget ${suffix}` });
  const va = await post('/virtual-agents', {
    name: `${label} Bot ${suffix}`,
    description: `examples/bot under test (${label})`,
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    team_id: bots.id,
  });
  const token = (await (await request.post('/api/v1/authorize', { data: { api_key: va.api_key } })).json()).response.access_token;
  const openChat = async (visitor: string, text: string) => {
    const res = await request.post('/api/v1/chats', {
      headers: { access_token: token },
      data: {
        channel: 'livechat',
        asset_id: asset.id,
        customer: { destination_id: `${visitor}-${suffix}` },
        assignee: va.login_id,
        messages: [{ type: 'inbound', text }],
      },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).response.chat_id as string;
  };
  return { bots, people, va, token, openChat };
}

/**
 * The example bot (examples/bot, the one `npm run demo:bot` starts) against the real server: it
 * catches up on a chat from before it started, answers a customer message once, and hands the
 * chat to a team of people when asked; a chat closed elsewhere (`chat.closed`) it lets go.
 */
test('the example bot catches up on start, answers a customer once and hands over when asked', async ({ request, baseURL }) => {
  const { bots, people, va, token, openChat } = await exampleBotTenant(request, 'Example');
  const transcript = async (chatId: string) => (await (await request.get(`/api/admin/chats/${chatId}`)).json()).response;
  const botReplies = async (chatId: string) =>
    ((await transcript(chatId)).messages as Message[]).filter((m) => m.type === 'outbound' && m.author === va.login_id).map((m) => m.text);

  const earlier = await openChat('early', 'Are you open on Sundays?');

  const bot = await startBot({
    baseUrl: baseURL!,
    apiKey: va.api_key,
    signingSecret: va.signing_secret,
    loginId: va.login_id,
    port: 0,
    handoverTeam: people.name,
    log: botLog.log,
  });
  try {
    const patched = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } });
    expect(patched.status()).toBe(200);

    // Catch-up: the chat from before the start is answered, once, even if its event also arrives.
    await expect.poll(() => botReplies(earlier)).toEqual([expect.stringContaining('Type "agent"')]);

    const chatId = await openChat('visitor', 'Hello, where is my parcel?');
    await expect.poll(() => botReplies(chatId)).toEqual([expect.stringContaining('Type "agent"')]);

    const asked = await request.post(`/api/admin/chats/${chatId}/messages`, {
      data: { type: 'inbound', text: 'Can I talk to a human agent?' },
    });
    expect(asked.status()).toBe(201);
    await expect.poll(async () => (await transcript(chatId)).team_id).toBe(people.id);
    const after = await transcript(chatId);
    expect(after.assignee).toBeNull();
    expect(await botReplies(chatId)).toEqual([expect.stringContaining('Type "agent"'), expect.stringContaining('Connecting you')]);
    expect(bot.held.has(chatId)).toBe(false);

    // A chat closed by someone else: the bot is told (chat.closed) and stops holding it.
    expect(bot.held.has(earlier)).toBe(true);
    const closed = await request.patch(`/api/v1/chats/${earlier}`, {
      headers: { access_token: token, team_id: String(bots.id) },
      data: { status: 'closed', outcome: 'resolved' },
    });
    expect(closed.status()).toBe(200);
    await expect.poll(() => bot.held.has(earlier)).toBe(false);
    expect(await botReplies(earlier)).toHaveLength(1);
  } finally {
    await bot.close();
  }
});

/**
 * `npm run demo:bot -- --ai` (the example bot on the AI SDK's mock model) with a webhook: the
 * model's answer takes longer than a delivery may, so every delivery is answered 200 at once, and
 * a customer message reached both by the start-up catch-up and by its (redelivered) event gets
 * one streamed reply, not two.
 */
test('the example bot on the AI SDK answers each delivery at once and each customer message once', async ({ request, baseURL }) => {
  const { people, va, openChat } = await exampleBotTenant(request, 'AI');
  type AdminEvent = { id: number; event_type: string; status: string; attempts: { http_status: number | null; error: string | null }[] };
  const chatOf = async (chatId: string) => (await (await request.get(`/api/admin/chats/${chatId}`)).json()).response;
  const botReplies = async (chatId: string) =>
    ((await chatOf(chatId)).messages as (Message & { stream_state?: string })[]).filter(
      (m) => m.type === 'outbound' && m.author === va.login_id,
    );
  const eventsOf = async (chatId: string) => (await chatOf(chatId)).events as AdminEvent[];

  // A chat from before the bot starts: its chat.assigned fails (nothing listens on port 9).
  const earlier = await openChat('early-ai', 'Where is my order?');
  await expect.poll(async () => (await eventsOf(earlier)).find((e) => e.event_type === 'chat.assigned')?.status).toBe('failed');

  const bot = await startBot({
    baseUrl: baseURL!,
    apiKey: va.api_key,
    signingSecret: va.signing_secret,
    loginId: va.login_id,
    port: 0,
    handoverTeam: people.name,
    aiSdk: true,
    log: botLog.log,
  });
  try {
    // The catch-up answered it as the bot started; its event, delivered again, is not answered twice.
    expect(await botReplies(earlier)).toHaveLength(1);
    const patched = await request.patch(`/api/admin/virtual-agents/${va.id}`, { data: { webhook_url: bot.url } });
    expect(patched.status()).toBe(200);
    const assigned = (await eventsOf(earlier)).find((e) => e.event_type === 'chat.assigned')!;
    const again = await request.post(`/api/admin/events/${assigned.id}/redeliver`);
    expect(again.status(), await again.text()).toBe(200);
    await expect.poll(async () => (await eventsOf(earlier)).find((e) => e.id === assigned.id)?.status).toBe('delivered');
    await new Promise((r) => setTimeout(r, 6000)); // a second reply, if any, would be streaming by now
    expect(await botReplies(earlier)).toHaveLength(1);

    // A new chat: its delivery is answered within the service's timeout (2 s here), at the first
    // attempt, and the model's reply arrives streamed, then closed.
    const chatId = await openChat('visitor-ai', 'Hello, where is my parcel?');
    await expect.poll(async () => (await botReplies(chatId)).map((m) => m.stream_state), { timeout: 30_000 }).toEqual(['closed']);
    expect((await botReplies(chatId))[0].text).toMatch(/^I looked up your order 1042/);
    const first = (await eventsOf(chatId)).find((e) => e.event_type === 'chat.assigned')!;
    expect(first.status).toBe('delivered');
    expect(first.attempts.map((a) => a.http_status)).toEqual([200]);

    // "agent": one reply, then the chat is with the people.
    const asked = await request.post(`/api/admin/chats/${chatId}/messages`, {
      data: { type: 'inbound', text: 'Can I talk to a human agent?' },
    });
    expect(asked.status()).toBe(201);
    await expect.poll(async () => (await chatOf(chatId)).team_id, { timeout: 30_000 }).toBe(people.id);
    expect((await botReplies(chatId)).map((m) => m.text)).toEqual([
      expect.stringMatching(/^I looked up/),
      expect.stringContaining('Connecting you'),
    ]);
    for (const e of await eventsOf(chatId))
      expect(
        e.attempts.map((a) => a.error),
        `${e.event_type} attempts`,
      ).not.toContainEqual(expect.stringContaining('timed out'));
  } finally {
    await bot.close();
  }
});
