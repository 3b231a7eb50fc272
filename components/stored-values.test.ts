import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Transcript } from '@/components/admin/chats/transcript';
import { ToastProvider } from '@/components/admin/toast';
import { MessageItem } from '@/components/agent/conversation';
import type { Message } from '@/contracts/bot/schemas/message';

/**
 * Rows written before a rule existed (or by a path that missed it) are still rendered: one odd
 * stored value must never take the console's chat page or the workspace's conversation down.
 */
const ODD_URLS = [
  'https://x.test/%E0%A4%A', // malformed percent-encoding: decodeURIComponent throws on it
  'https://x.test/%',
  'javascript:alert(1)',
  'not a url at all',
  '',
  `https://x.test/${'a'.repeat(5000)}`,
];

const message = (url: string, i: number): Message =>
  ({
    transid: `t-${i}`,
    type: 'outbound',
    text: 'here',
    attachment: { type: 'file', url },
    quick_replies: { request_identifier: 'r', options: [{ title: '%E0%A4%A', payload: '%' }] },
    author: null,
    timestamp: '2026-11-29T02:00:00.000Z',
  }) as Message;

describe('pages render any stored value', () => {
  it('the console transcript renders odd attachment URLs, never as a script link', () => {
    const html = renderToStaticMarkup(createElement(ToastProvider, null, createElement(Transcript, { messages: ODD_URLS.map(message) })));
    assert.match(html, /file attachment: %E0%A4%A/, 'the undecodable name is shown as stored');
    assert.doesNotMatch(html, /href="javascript:/i);
  });

  it('the workspace conversation renders odd attachment URLs, never as a script link', () => {
    for (const [i, url] of ODD_URLS.entries()) {
      const html = renderToStaticMarkup(createElement(MessageItem, { m: message(url, i) }));
      assert.doesNotMatch(html, /href="javascript:/i, url);
    }
  });
});
