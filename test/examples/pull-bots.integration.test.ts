/**
 * The example bots in pull mode against a real server process (test/support/api-server-process.ts),
 * each on a VA in pull mode with no webhook URL, created through the admin API:
 * - the Python bot (examples/python-bot, standard library only), run as its README says: it
 *   long-polls GET /api/v1/events, verifies each item's signature, answers the customer, hands the
 *   chat to people when asked, and after a kill and a restart carries on from its saved cursor
 *   without handling anything twice; with the wrong secret it acts on nothing;
 * - `npm run demo:bot -- --pull` (examples/bot): the same, resuming from the acknowledged position.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { until } from '../delivery/helpers';
import {
  type ApiServer,
  adminCall,
  adminSignIn,
  botCreateChat,
  type Proc,
  pythonMissing,
  ROOT,
  startApiServer,
  startProcess,
} from '../support/child-process';

const BOT = path.join(ROOT, 'examples', 'python-bot', 'bot.py');
const ADMIN = { email: `admin-${randomBytes(3).toString('hex')}@example.test`, password: 'correct horse battery staple 42' };

const noPython = pythonMissing();

/** The bot's JSON log lines (anything else it printed is left out). */
function botLog(bot: Proc): { msg: string; [field: string]: unknown }[] {
  return bot.lines.flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return [];
    }
  });
}

describe('the example bots in pull mode against a real server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-python-bot-'));
  let server: ApiServer | undefined;
  let base = '';
  let cookie = '';
  const bots: Proc[] = [];

  const admin = (method: string, p: string, body?: unknown) =>
    adminCall<Record<string, unknown> & { id: number }>(base, cookie, method, p, body);

  before(async () => {
    server = await startApiServer({ dir, tag: 'pybot', admin: ADMIN, extraEnv: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    base = server.base;
    cookie = await adminSignIn(base, ADMIN);
    botTeam = await admin('POST', '/teams', { name: 'Bots', auto_assign: false });
    people = await admin('POST', '/teams', { name: 'People', auto_assign: false });
    asset = await admin('POST', '/assets', { channel: 'livechat', name: 'Widget' });
  });

  let botTeam: { id: number };
  let people: { id: number };
  let asset: { id: number };
  type PullVa = { id: number; api_key: string; signing_secret: string; login_id: string; delivery_mode: string };
  type Message = { type: string; text?: string; author: string | null };

  /** A VA in pull mode with no webhook URL, registered through the admin API. */
  async function createPullVa(name: string): Promise<PullVa> {
    const va = (await admin('POST', '/virtual-agents', {
      name,
      description: 'an example bot under test',
      delivery_mode: 'pull',
      subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
      team_id: botTeam.id,
    })) as unknown as PullVa;
    assert.equal(va.delivery_mode, 'pull');
    return va;
  }

  /** A customer writes on the channel: a chat routed to the VA with their first message. */
  const openChat = (token: string, va: PullVa, visitor: string, text: string) =>
    botCreateChat(base, token, { assetId: asset.id, visitor, assignee: va.login_id, text });

  const transcript = async (chatId: string) =>
    (await admin('GET', `/chats/${chatId}`)) as unknown as { messages: Message[]; team_id: number; assignee: string | null };
  const repliesOf = async (va: PullVa, chatId: string) =>
    (await transcript(chatId)).messages.filter((m) => m.type === 'outbound' && m.author === va.login_id);

  after(async () => {
    for (const bot of bots) bot.child.kill('SIGKILL');
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the Python bot answers once, hands over on request, and after a kill and restart handles nothing twice', {
    skip: noPython,
  }, async () => {
    const va = await createPullVa('Python Bot');

    const cursorFile = path.join(dir, 'cursor.txt');
    const botEnv = {
      VA_BASE_URL: base,
      VA_API_KEY: va.api_key,
      VA_SIGNING_SECRET: va.signing_secret,
      CURSOR_FILE: cursorFile,
      HANDOVER_TEAM: 'People',
      DEMO_LOGIN_FILE: path.join(dir, 'no-such-file'),
    };
    const startBot = async (extra: Record<string, string> = {}) => {
      const bot = startProcess('python3', [BOT], { ...botEnv, ...extra });
      bots.push(bot);
      return bot;
    };

    const token = await authorize(va.api_key);
    const chatId = await openChat(token, va, 'visitor-py', 'Hello, where is my parcel?');
    const botReplies = () => repliesOf(va, chatId);

    let bot = await startBot();
    await until('the first reply', async () => ((await botReplies()).length === 1 ? true : null), 60_000);
    // Handled: the event's cursor is saved before the bot reads on.
    const firstRun = await until('the chat.assigned item handled', () =>
      botLog(bot).filter((l) => l.msg === 'handled' && l.event_type === 'chat.assigned').length === 1 ? botLog(bot) : null,
    );
    assert.match((await botReplies())[0].text ?? '', /Type "agent"/);

    // Killed outright; meanwhile the customer writes again.
    bot.child.kill('SIGKILL');
    await bot.exited;
    await admin('POST', `/chats/${chatId}/messages`, { type: 'inbound', text: 'Do you ship to Norway?' });

    bot = await startBot();
    await until(
      'the reply to the message sent while the bot was down',
      async () => ((await botReplies()).length >= 2 ? true : null),
      60_000,
    );
    await until('the message.received item handled', () =>
      botLog(bot).some((l) => l.msg === 'handled' && l.event_type === 'message.received') ? true : null,
    );
    const second = botLog(bot);
    assert.ok(
      second.some((l) => l.msg === 'reading events' && l.resume === true),
      'the restarted bot resumed from its cursor file',
    );
    const handledBefore = new Set(firstRun.filter((l) => l.msg === 'handled').map((l) => l.webhook_id));
    const again = second.filter((l) => l.msg === 'handled' && handledBefore.has(l.webhook_id));
    assert.deepEqual(again, [], 'no event handled by the first run is handled again after the restart');
    assert.equal(second.filter((l) => l.msg === 'replied').length, 1, 'one reply in the second run');
    assert.equal((await botReplies()).length, 2);

    // The customer asks for a person: a short answer, then the chat goes to the People team.
    await admin('POST', `/chats/${chatId}/messages`, { type: 'inbound', text: 'I want a person, please' });
    const handedOver = await until(
      'the chat is in the People team',
      async () => {
        const t = await transcript(chatId);
        return t.team_id === people.id ? t : null;
      },
      60_000,
    );
    assert.notEqual(handedOver.assignee, va.login_id);
    const replies = (await botReplies()).map((m) => m.text ?? '');
    assert.equal(replies.length, 3);
    assert.match(replies[2], /Connecting you with a person/);
    // Its own transfer also tells the bot it lost the chat.
    await until('chat.unassigned handled', () =>
      botLog(bot).some((l) => l.msg === 'handled' && l.event_type === 'chat.unassigned') ? true : null,
    );
    // No message text or credentials in its log.
    const logText = [...bot.lines, ...firstRun.map((l) => JSON.stringify(l))].join('\n');
    for (const secret of ['parcel', 'Norway', 'I want a person', va.api_key, va.signing_secret, token]) {
      assert.ok(!logText.includes(secret), `the bot's log carries ${secret.slice(0, 12)}…`);
    }
    bot.child.kill('SIGTERM');
    assert.equal(await bot.exited, 0);

    // A bot with another secret verifies nothing it reads: it stops, and answers no one.
    const otherChat = await openChat(token, va, 'visitor-py-2', 'Anyone there?');
    const wrong = await startBot({ VA_SIGNING_SECRET: `whsec_${randomBytes(24).toString('base64')}` });
    const code = await wrong.exited;
    assert.notEqual(code, 0);
    assert.match(wrong.lines.join('\n'), /signature check failed/);
    const untouched = (await admin('GET', `/chats/${otherChat}`)) as unknown as { messages: Message[] };
    assert.deepEqual(
      untouched.messages.filter((m) => m.type === 'outbound'),
      [],
    );
  });

  it('npm run demo:bot -- --pull: the TypeScript example bot answers, hands over, and restarted carries on after the acknowledged position', async () => {
    const va = await createPullVa('TypeScript Bot');
    const token = await authorize(va.api_key);
    const start = () => {
      const bot = startProcess(process.execPath, ['--import', 'tsx', path.join('examples', 'bot', 'main.ts'), '--pull'], {
        VA_BASE_URL: base,
        VA_API_KEY: va.api_key,
        VA_SIGNING_SECRET: va.signing_secret,
        HANDOVER_TEAM: 'People',
        DEMO_LOGIN_FILE: path.join(dir, 'no-such-file'),
      });
      bots.push(bot);
      return bot;
    };
    // Nothing left to read after the acknowledged position: every event read was acknowledged.
    const allAcknowledged = async () => {
      const res = await fetch(`${base}/api/v1/events?wait_seconds=0`, { headers: { access_token: token } });
      assert.equal(res.status, 200);
      return ((await res.json()) as { response: { events: unknown[] } }).response.events.length === 0 ? true : null;
    };

    const chatId = await openChat(token, va, 'visitor-ts', 'Hello, is my order on its way?');
    let bot = start();
    await until('the first reply', async () => ((await repliesOf(va, chatId)).length === 1 ? true : null), 60_000);
    await until('the chat.assigned event acknowledged', allAcknowledged);
    bot.child.kill('SIGTERM');
    assert.equal(await bot.exited, 0);

    await admin('POST', `/chats/${chatId}/messages`, { type: 'inbound', text: 'Do you deliver on Saturdays?' });
    bot = start();
    await until(
      'the reply to the message sent while it was stopped',
      async () => ((await repliesOf(va, chatId)).length === 2 ? true : null),
      60_000,
    );
    await until('the message.received event acknowledged', allAcknowledged);
    assert.equal(botLog(bot).filter((l) => l.msg === 'replied').length, 1, 'the restarted bot replied once, to the new message only');

    await admin('POST', `/chats/${chatId}/messages`, { type: 'inbound', text: 'Can I talk to a human?' });
    await until('the chat is in the People team', async () => ((await transcript(chatId)).team_id === people.id ? true : null), 60_000);
    const replies = (await repliesOf(va, chatId)).map((m) => m.text ?? '');
    assert.equal(replies.length, 3);
    assert.match(replies[2], /Connecting you with a person/);
    await until('chat.unassigned seen', () => (botLog(bot).some((l) => l.msg === 'chat left' && l.chat_id === chatId) ? true : null));
    bot.child.kill('SIGTERM');
    assert.equal(await bot.exited, 0);
  });

  it('npm run demo:bot -- --pull --ai: streamText on the AI SDK mock model, its UI message stream sent as is, reaches the customer whole', async () => {
    const va = await createPullVa('AI SDK Bot');
    const token = await authorize(va.api_key);
    const bot = startProcess(process.execPath, ['--import', 'tsx', path.join('examples', 'bot', 'main.ts'), '--pull', '--ai'], {
      VA_BASE_URL: base,
      VA_API_KEY: va.api_key,
      VA_SIGNING_SECRET: va.signing_secret,
      HANDOVER_TEAM: 'People',
      DEMO_LOGIN_FILE: path.join(dir, 'no-such-file'),
    });
    bots.push(bot);
    const chatId = await openChat(token, va, 'visitor-ai', 'Where is my order?');
    const [reply] = await until(
      'the streamed reply, closed',
      async () => {
        const replies = (await transcript(chatId)).messages.filter(
          (m) => m.type === 'outbound' && m.author === va.login_id && (m as { stream_state?: string }).stream_state === 'closed',
        );
        return replies.length ? replies : null;
      },
      60_000,
    );
    assert.match(reply.text ?? '', /^I looked up your order 1042: it left our warehouse this morning/);
    await until('the bot logs its AI SDK reply', () =>
      botLog(bot).some((l) => l.msg === 'replied (AI SDK stream)' && l.chat_id === chatId) ? true : null,
    );
    // The model's reasoning never reached the transcript.
    assert.ok(!(await transcript(chatId)).messages.some((m) => /check their order first/.test(m.text ?? '')));
    bot.child.kill('SIGTERM');
    assert.equal(await bot.exited, 0);
  });

  async function authorize(apiKey: string): Promise<string> {
    const res = await fetch(`${base}/api/v1/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { response: { access_token: string } }).response.access_token;
  }
});
