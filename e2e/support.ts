import type { IncomingMessage } from 'node:http';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';
import { startReceiver as startTestReceiver } from '../test/delivery/receiver';

/** What the receiver answered 200: the body as read and parsed. */
export type Received = { headers: IncomingMessage['headers']; raw: string; body: any };

/** A queued answer of the receiver: a status, or a status with headers (e.g. `Retry-After`). */
type Reply = number | { status: number; headers?: Record<string, string> };

/**
 * The test suite's webhook receiver (test/delivery/receiver.ts: real node:http on 127.0.0.1) as
 * the browser tests use it: it answers with the replies queued in `replies` (then 200);
 * `received` keeps the bodies it answered 200, `refused` counts the other answers.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const replies: Reply[] = [];
  let refused = 0;
  const receiver = await startTestReceiver((req) => {
    const reply = replies.shift() ?? 200;
    const { status, headers = {} } = typeof reply === 'number' ? { status: reply } : reply;
    if (status === 200) received.push({ headers: req.headers, raw: req.raw, body: JSON.parse(req.raw) });
    else refused += 1;
    return { status, headers, body: status === 200 ? 'ok' : 'not now' };
  });
  const waitFor = async (n: number, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (received.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${received.length}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return received;
  };
  return { url: receiver.url, received, replies, refused: () => refused, close: () => receiver.close(), waitFor };
}

export async function adminLogin(request: APIRequestContext) {
  const res = await request.post('/api/admin/login', { data: E2E_ADMIN });
  if (res.status() !== 200) throw new Error(`admin login failed: ${res.status()} ${await res.text()}`);
}

/** Sets up a tenant's team, asset and VA through the admin API; returns what a bot needs. */
export async function registerBot(request: APIRequestContext, webhookUrl: string) {
  const suffix = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await adminLogin(request);
  const team = (await (await request.post('/api/admin/teams', { data: { name: `Bots ${suffix}`, auto_assign: false } })).json()).response;
  const other = (
    await (await request.post('/api/admin/teams', { data: { name: `Humans ${suffix}`, auto_assign: false, skills: ['billing'] } })).json()
  ).response;
  const asset = (await (await request.post('/api/admin/assets', { data: { channel: 'livechat', name: `Widget ${suffix}` } })).json())
    .response;
  const vaRes = await request.post('/api/admin/virtual-agents', {
    data: {
      name: `E2E Bot ${suffix}`,
      description: 'end-to-end bot',
      webhook_url: webhookUrl,
      webhook_headers: { 'X-Bot-Secret': 'static-value' },
      subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
      team_id: team.id,
      skills: [],
      custom_attributes: {},
    },
  });
  if (vaRes.status() !== 201) throw new Error(`VA registration failed: ${vaRes.status()} ${await vaRes.text()}`);
  const va = (await vaRes.json()).response;
  return { team, other, asset, va };
}

/** An outbound livechat message offering two quick replies, as a bot sends it. */
export const QUICK_REPLY_MESSAGE = {
  type: 'outbound',
  livechat_sub_type: 'quick_replies',
  text: 'Billing or sales?',
  quick_replies: {
    request_identifier: 'b6f1a7e2-1c1d-4c1f-9d4e-2f7a9b8c0d11',
    options: [
      { title: 'Billing', payload: 'billing' },
      { title: 'Sales', payload: 'sales' },
    ],
  },
};
