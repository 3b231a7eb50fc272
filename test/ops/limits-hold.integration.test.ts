import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { resetEnv } from '@/env';
import { ApiClient, type ApiReply, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { AGENT_PASSWORD, newVisitor, signedInAdminOf, signedInAgent } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

/**
 * Every limit of the service, flooded well past its first refusal on both limiter stores (the
 * database one, which blocks a key in memory once it is over, and the in-process one): each answer
 * past the budget is 2012/429 with Retry-After, none lets a request through, and none is a 500.
 */
const PAST = 12;
let addresses = 0;
const nextAddress = () => `198.18.${Math.floor(++addresses / 250)}.${addresses % 250}`;

async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  resetEnv();
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
  }
}

/** Sends `budget` requests that pass, then PAST more that must each be refused. */
async function flood(what: string, budget: number, send: (i: number) => Promise<ApiReply>) {
  for (let i = 0; i < budget; i++) {
    const res = await send(i);
    assert.notEqual(res.status, 429, `${what}: request ${i + 1} of a budget of ${budget} refused: ${JSON.stringify(res.body)}`);
    assert.ok(res.status < 500, `${what}: request ${i + 1} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  const past: ApiReply[] = [];
  for (let i = 0; i < PAST; i++) past.push(await send(budget + i));
  assertRefused(what, past);
}

function assertRefused(what: string, replies: ApiReply[]) {
  replies.forEach((res, i) => {
    assert.equal(res.status, 429, `${what}: request ${i + 1} past the budget answered ${res.status}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.status_code, 2012);
    assert.ok(Number(res.headers.get('retry-after')) >= 1, `${what}: Retry-After on refusal ${i + 1}`);
  });
}

describe('every limit holds for its whole window, past its first refusal', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;

  before(async () => {
    t = await createTenant(ctx.db);
  });

  for (const store of ['database', 'memory'] as const) {
    describe(`on the ${store} store`, () => {
      const run = <T>(vars: Record<string, string>, fn: () => Promise<T>) => withEnv({ RATE_LIMIT_STORE: store, ...vars }, fn);

      it('bot API: requests per account, and /authorize per address', async () => {
        // A budget of its own (the limiter is per budget size), so no other test's calls count.
        await run({ RATE_LIMIT_PER_MINUTE: store === 'database' ? '7' : '8' }, async () => {
          const budget = Number(process.env.RATE_LIMIT_PER_MINUTE);
          await flood('bot requests per account', budget, () => botApi('GET', '/teams', { token: t.token }));
          const ip = nextAddress();
          await flood('authorize per address', budget, () =>
            botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey }, headers: { 'x-forwarded-for': ip } }),
          );
        });
      });

      it('bot API: failed authentications per address', async () => {
        await run({ BOT_AUTH_FAILURES_PER_MINUTE: '3' }, async () => {
          const ip = nextAddress();
          await flood('bot authentication failures', 3, () =>
            botApi('GET', '/teams', { token: `no-such-token-${Math.random()}`, headers: { 'x-forwarded-for': ip } }),
          );
          // The failures close /authorize for that address too, even with the right key.
          const right = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey }, headers: { 'x-forwarded-for': ip } });
          assertRefused('authorize after failures', [right]);
        });
      });

      it('console: sign-ins per address, failures per account, failures per address, requests per session', async () => {
        await run(
          { ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '4', ADMIN_LOGIN_FREE_FAILURES: '2', ADMIN_LOGIN_FAILURES_PER_IP_PER_HOUR: '5' },
          async () => {
            const ip = nextAddress();
            const from = { headers: { 'x-forwarded-for': ip } };
            await flood('console sign-ins per address', 4, (i) =>
              new ApiClient('admin').post('/login', { email: `nobody-${i}@example.test`, password: 'wrong horse' }, from),
            );

            // One account guessed from ever new addresses: 2 free failures, a third that opens the wait, then refusals.
            const admin = await signedInAdminOf(ctx.db, t.account.id);
            await flood('console failures per account', 3, () =>
              new ApiClient('admin').post(
                '/login',
                { email: admin.email, password: 'wrong horse' },
                { headers: { 'x-forwarded-for': nextAddress() } },
              ),
            );

            // One address failing on ever new accounts.
            const guesser = { headers: { 'x-forwarded-for': nextAddress() } };
            let n = 0;
            const guess = () =>
              new ApiClient('admin').post('/login', { email: `someone-${++n}@example.test`, password: 'wrong horse' }, guesser);
            await withEnv({ ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '100' }, () => flood('console failures per address', 5, guess));
          },
        );
        await run({ ADMIN_RATE_LIMIT_PER_MINUTE: '5' }, async () => {
          const { client } = await signedInAdminOf(ctx.db, t.account.id);
          await flood('console requests per session', 5, () => client.get('/teams'));
        });
      });

      it('workspace: sign-ins and invite acceptances per address, requests per session', async () => {
        const { client: admin } = await signedInAdminOf(ctx.db, t.account.id);
        const agent = await signedInAgent(admin, t.agent.id, `${t.agent.loginId}@example.test`);
        await run({ ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '4' }, async () => {
          const ip = nextAddress();
          const from = { headers: { 'x-forwarded-for': ip } };
          await flood('workspace sign-ins per address', 4, () =>
            new ApiClient('agent').post('/login', { email: `${t.agent.loginId}@example.test`, password: 'wrong horse' }, from),
          );
          const other = { headers: { 'x-forwarded-for': nextAddress() } };
          await flood('invite acceptances per address', 4, (i) =>
            new ApiClient('agent').post('/invite/accept', { token: `not-an-invite-${i}`, password: AGENT_PASSWORD }, other),
          );
        });
        await run({ ADMIN_RATE_LIMIT_PER_MINUTE: '6' }, async () => {
          await flood('workspace requests per session', 6, () => agent.get('/me'));
        });
      });

      it('widget: requests per address, new customers per address, messages per customer', async () => {
        const appId = t.assets.livechat.id;
        await run({ WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS: '5' }, async () => {
          const ip = nextAddress();
          await flood('widget requests per address', 5, () => widgetApi('GET', `/apps/${appId}`, { address: ip }));
        });
        await run({ WIDGET_VISITORS_PER_HOUR_PER_ADDRESS: '3' }, async () => {
          const ip = nextAddress();
          await flood('widget customers per address', 3, () => widgetApi('POST', `/apps/${appId}/visitors`, { address: ip }));
        });
        const v = await newVisitor(appId, nextAddress());
        await run({ WIDGET_MESSAGES_PER_MINUTE: '4' }, async () => {
          // One customer from ever new addresses: the customer's own budget holds.
          const started = await widgetApi('POST', '/chats', { token: v.token, address: nextAddress(), body: { name: 'Flo', text: 'hi' } });
          assert.equal(started.status, 201, JSON.stringify(started.body));
          const chatId = started.body.response.chat_id;
          await flood('widget messages per customer', 3, (i) =>
            widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, address: nextAddress(), body: { text: `m${i}` } }),
          );
        });
      });
    });
  }
});
