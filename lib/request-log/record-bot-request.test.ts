import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storableText } from '@/platform/util/storable-text';
import { pathWithQueryNames, segment } from './record-bot-request';

describe('the request log row’s parts', () => {
  it('takes one segment of a path, as split would', () => {
    for (const path of ['/api/v1/chats/c-1', '/api/v1/chats/c-1/tags', '/api/v1/chats/', '/api/v1', '', '//x//y']) {
      for (let n = 0; n < 7; n++) assert.equal(segment(path, n), path.split('/')[n] ?? '', `${path} ${n}`);
    }
  });

  it('keeps the query’s names, never its values', () => {
    assert.equal(pathWithQueryNames('/api/v1/chats', 'status=open&q=secret&status=closed'), '/api/v1/chats?status&q');
    assert.equal(pathWithQueryNames('/api/v1/chats', ''), '/api/v1/chats');
  });

  it('replaces NUL and lone surrogates, and leaves other text as it is', () => {
    assert.equal(storableText('a\u0000b'), 'a\uFFFDb');
    assert.equal(storableText('x\ud800'), 'x\uFFFD');
    assert.equal(storableText('\udc00y'), '\uFFFDy');
    const plain = 'café 日本 😀 \t\\N';
    assert.equal(storableText(plain), plain);
  });
});
