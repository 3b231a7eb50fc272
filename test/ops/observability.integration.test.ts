import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GET as live } from '@/app/api/health/live/route';
import { GET as ready } from '@/app/api/health/ready/route';
import { GET as inngestRoute } from '@/app/api/inngest/route';
import { GET as scrape } from '@/app/api/metrics/route';
import { environmentProblems, resetEnv } from '@/env';
import { startDraining } from '@/platform/ops/draining';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { createTenant } from '../support/tenant';

const TOKEN = 'metrics-token-for-tests-0123456789';

function withEnv(vars: Record<string, string | undefined>) {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
  };
}

describe('operating endpoints', () => {
  const ctx = setupTestDatabase();

  it('serves no metrics without METRICS_TOKEN, refuses a wrong token, and scrapes with the right one', async () => {
    const restoreOff = withEnv({ METRICS_TOKEN: undefined });
    try {
      const off = await scrape(new Request('http://localhost/api/metrics'));
      assert.equal(off.status, 404);
      assert.equal((await off.json()).status_code, 2011);
    } finally {
      restoreOff();
    }

    const restore = withEnv({ METRICS_TOKEN: TOKEN });
    try {
      const t = await createTenant(ctx.db);
      assert.equal((await botApi('GET', '/teams', { token: t.token })).status, 200);
      assert.equal((await botApi('GET', '/no-such-thing', { token: t.token })).status, 404);

      const wrong = await scrape(new Request('http://localhost/api/metrics', { headers: { authorization: 'Bearer nope' } }));
      assert.equal(wrong.status, 401);
      assert.equal((await wrong.json()).status_code, 3001);

      const res = await scrape(new Request('http://localhost/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
      const text = await res.text();
      // By route template, never by raw path (which carries ids).
      assert.match(text, /vachat_http_requests_total\{route="\/api\/v1\/teams",method="GET",status="200"\} [1-9]/);
      assert.match(text, /vachat_http_requests_total\{route="unmatched",method="GET",status="404"\} [1-9]/);
      assert.match(text, /vachat_http_request_duration_seconds_bucket\{le="0.005",route="\/api\/v1\/teams"/);
      assert.match(text, /vachat_database_up 1/);
      // The VA's chat.assigned event waits (delivery is off in this file): one pending, with an age.
      const chat = await botApi('POST', '/chats', {
        token: t.token,
        body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+15550001' }, assignee: t.bot.user.loginId },
      });
      assert.equal(chat.status, 201, JSON.stringify(chat.body));
      const again = await (
        await scrape(new Request('http://localhost/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }))
      ).text();
      assert.match(again, new RegExp(`vachat_delivery_backlog_events\\{virtual_agent_id="${t.bot.user.id}"\\} 1`));
      assert.match(again, new RegExp(`vachat_delivery_oldest_pending_seconds\\{virtual_agent_id="${t.bot.user.id}"\\} [0-9.e-]+`));
    } finally {
      restore();
    }
  });

  it('answers /api/inngest with an envelope when Inngest is not the engine', async () => {
    const res = await inngestRoute(new Request('http://localhost/api/inngest') as never, undefined as never);
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.equal(body.status_code, 2011);
    assert.match(body.description, /DELIVERY_ENGINE=inngest/);
  });

  it('lists one line per bad variable, without the values of secrets', () => {
    const problems = environmentProblems({ ACCESS_TOKEN_TTL_SECONDS: '4', METRICS_TOKEN: 'short', DELIVERY_ENGINE: 'fast' });
    assert.equal(problems.length, 3);
    assert.ok(problems.some((p) => p.startsWith('ACCESS_TOKEN_TTL_SECONDS=4: ')));
    assert.ok(problems.some((p) => p.startsWith('DELIVERY_ENGINE=fast: ')));
    const token = problems.find((p) => p.startsWith('METRICS_TOKEN'));
    assert.ok(token && !token.includes('short'), token);
  });

  // Last: draining cannot be undone in a process.
  describe('health', () => {
    it('is live without the database, ready with it and its migrations, and not ready once shutting down', async () => {
      assert.equal((await live()).status, 200);
      const ok = await ready();
      const report = await ok.json();
      assert.equal(ok.status, 200, JSON.stringify(report));
      assert.equal(report.status, 'ready');
      assert.equal(report.checks.migrations.ok, true);

      startDraining();
      const draining = await ready();
      assert.equal(draining.status, 503);
      assert.equal((await draining.json()).checks.shutdown.ok, false);
    });
  });
});
