import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NextRequest } from 'next/server';
import { GET as widgetScript } from '@/app/widget.js/route';
import { resetEnv } from '@/env';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant } from '../support/tenant';

/** The embed script's frame address comes from PUBLIC_URL, else the request's own Host: never from a header nobody vouched for. */
describe('widget.js and forwarded headers', () => {
  const ctx = setupTestDatabase();

  const script = (appId: number) =>
    widgetScript(
      new NextRequest(`http://chat.example.test/widget.js?app=${appId}`, {
        headers: { host: 'chat.example.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' },
      }),
    ).then((r) => r.text());

  const setAll = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
  };
  const withEnv = async (vars: Record<string, string | undefined>, fn: () => Promise<void>) => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    setAll(vars);
    try {
      await fn();
    } finally {
      setAll(saved);
    }
  };

  it('ignores X-Forwarded-Host without TRUSTED_PROXIES, takes PUBLIC_URL over everything, and a trusted proxy’s header otherwise', async () => {
    const t = await createTenant(ctx.db);
    const appId = t.assets.livechat.id;
    await withEnv({ TRUSTED_PROXIES: undefined, PUBLIC_URL: undefined }, async () => {
      const js = await script(appId);
      assert.match(js, /"base":"http:\/\/chat\.example\.test"/);
      assert.doesNotMatch(js, /evil\.test/);
    });
    await withEnv({ TRUSTED_PROXIES: undefined, PUBLIC_URL: 'https://chat.acme.example' }, async () => {
      assert.match(await script(appId), /"base":"https:\/\/chat\.acme\.example"/);
    });
    await withEnv({ TRUSTED_PROXIES: '1', PUBLIC_URL: undefined }, async () => {
      assert.match(await script(appId), /"base":"https:\/\/evil\.test"/, 'a vouched-for proxy names the host');
    });
  });

  it("the console's asset says where the widget's origin comes from: PUBLIC_URL, or the address the request came to", async () => {
    const t = await createTenant(ctx.db);
    const { client } = await signedInAdminOf(ctx.db, t.account.id);
    const widgetOf = async () => {
      const res = await client.request('GET', '/assets?channel=livechat');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const asset = res.body.response.assets.find((a: { id: number }) => a.id === t.assets.livechat.id);
      return asset.widget as { url: string; origin: string; origin_from: string };
    };
    await withEnv({ TRUSTED_PROXIES: undefined, PUBLIC_URL: undefined }, async () => {
      const w = await widgetOf();
      assert.equal(w.origin_from, 'request');
      assert.equal(w.url, `${w.origin}/chat/${t.assets.livechat.id}`);
    });
    await withEnv({ TRUSTED_PROXIES: undefined, PUBLIC_URL: 'https://chat.acme.example' }, async () => {
      const w = await widgetOf();
      assert.deepEqual([w.origin_from, w.origin], ['PUBLIC_URL', 'https://chat.acme.example']);
    });
  });
});
