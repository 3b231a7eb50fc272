import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GET } from '@/app/api/widget/openapi.json/route';
import { resetEnv } from '@/env';

describe('widget API document', () => {
  it('is served at /api/widget/openapi.json, the same as the committed openapi-widget.json but for the server default', async () => {
    const res = GET(new Request('http://localhost:3000/api/widget/openapi.json'));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'openapi-widget.json'), 'utf8'));
    assert.deepEqual(await res.json(), committed);
  });

  it("names the running server's own origin as the server default, on each of the three documents (a proxy's scheme with TRUSTED_PROXIES)", async () => {
    process.env.TRUSTED_PROXIES = '1';
    resetEnv();
    const { GET: bot } = await import('@/app/api/v1/openapi.json/route');
    const { GET: admin } = await import('@/app/api/admin/openapi.json/route');
    for (const [get, p] of [
      [GET, '/api/widget/openapi.json'],
      [bot, '/api/v1/openapi.json'],
      [admin, '/api/admin/openapi.json'],
    ] as const) {
      const served = await get(
        new Request(`http://10.1.2.3:4123${p}`, { headers: { host: 'chat.example.test:8443', 'x-forwarded-proto': 'https' } }),
      ).json();
      assert.equal(served.servers[0].variables.baseUrl.default, 'https://chat.example.test:8443', p);
    }
    delete process.env.TRUSTED_PROXIES;
    resetEnv();
    const unvouched = await GET(
      new Request('http://10.1.2.3:4123/api/widget/openapi.json', {
        headers: { host: 'chat.example.test:8443', 'x-forwarded-proto': 'https' },
      }),
    ).json();
    assert.equal(
      unvouched.servers[0].variables.baseUrl.default,
      'http://chat.example.test:8443',
      'X-Forwarded-Proto counts only from TRUSTED_PROXIES',
    );
  });
});
