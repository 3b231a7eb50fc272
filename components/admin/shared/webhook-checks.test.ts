import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkHeaderName, checkHeaderValue, checkUrlFormat } from './webhook-checks';

describe('webhook checks of the admin pages', () => {
  it('explain line breaks in header values', () => {
    assert.match(checkHeaderValue('a\r\nb') ?? '', /^Value may not contain line breaks/);
    assert.equal(checkHeaderValue('fine'), null);
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
