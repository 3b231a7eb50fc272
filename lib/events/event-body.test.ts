import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_ENTRY_EXAMPLES, eventMessageEntrySchema } from '@/contracts/bot/schemas/events';
import { messageInputSchema } from '@/contracts/bot/schemas/message';
import { normalizeMessage } from '@/lib/chats/normalize-message';
import { toEventEntry } from './event-body';

describe('event message entry', () => {
  for (const example of EVENT_ENTRY_EXAMPLES) {
    it(`documents ${example.channels.join(', ')} with an example the service accepts and summarises as shown`, () => {
      for (const channel of example.channels) {
        const input = messageInputSchema.parse(example.message);
        const body = normalizeMessage(input, channel);
        const message = { transid: 'm-1', type: input.type, ...body, author: null, timestamp: '2026-03-02T09:15:11.870Z' };
        const entry = toEventEntry(message, 'tx-1');
        eventMessageEntrySchema.parse(entry);
        const { transid, timestamp, message: inner, ...summary } = entry;
        assert.deepEqual(summary, example.summary);
        assert.equal(transid, 'tx-1');
        assert.equal(inner, message);
      }
    });
  }
});
