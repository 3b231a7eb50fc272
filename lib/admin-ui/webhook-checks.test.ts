import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESERVED_HEADERS } from '@/lib/webhooks/url-policy';
import { checkHeaderName, checkUrlFormat, RESERVED_HEADER_NAMES } from './webhook-checks';

describe('webhook checks of the admin pages', () => {
  it('reserve exactly the header names the server reserves', () => {
    assert.deepEqual([...RESERVED_HEADER_NAMES].sort(), [...RESERVED_HEADERS].sort());
  });

  it('refuse reserved header names in any case and malformed ones', () => {
    assert.match(checkHeaderName('Webhook-Signature') ?? '', /Reserved/);
    assert.match(checkHeaderName('X Bad') ?? '', /valid/);
    assert.equal(checkHeaderName('X-Bot-Tenant'), null);
  });

  it('explain malformed webhook URLs before the server is asked', () => {
    assert.match(checkUrlFormat('bot.example/hook') ?? '', /absolute/);
    assert.match(checkUrlFormat('ftp://bot.example/hook') ?? '', /https/);
    assert.match(checkUrlFormat('https://user:pw@bot.example/hook') ?? '', /Credentials/);
    assert.equal(checkUrlFormat('https://bot.example/hook'), null);
  });
});
