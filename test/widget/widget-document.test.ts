import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GET } from '@/app/api/widget/openapi.json/route';

describe('widget API document', () => {
  it('is served at /api/widget/openapi.json, the same as the committed openapi-widget.json', async () => {
    const res = GET();
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'openapi-widget.json'), 'utf8'));
    assert.deepEqual(await res.json(), committed);
  });
});
