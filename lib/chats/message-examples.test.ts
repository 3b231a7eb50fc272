import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POST_MESSAGE_EXAMPLES } from '@/contracts/bot/message-examples';
import { messageInputSchema } from '@/contracts/bot/schemas/message';
import { normalizeMessage } from './normalize-message';

describe('the named examples of POST /chats/{chat_id}/messages', () => {
  it('are each valid for their channel and direction', () => {
    for (const [name, e] of Object.entries(POST_MESSAGE_EXAMPLES)) {
      const parsed = messageInputSchema.safeParse(e.value);
      assert.ok(parsed.success, `${name}: ${!parsed.success && parsed.error.message}`);
      assert.doesNotThrow(() => normalizeMessage(parsed.data, e.channel), name);
    }
  });

  it('cover every direction and the interactive shapes of livechat, abc and messenger', () => {
    const values = Object.values(POST_MESSAGE_EXAMPLES).map((e) => e.value);
    for (const type of ['inbound', 'outbound', 'announcement'])
      assert.ok(
        values.some((v) => v.type === type),
        type,
      );
    for (const field of [
      'quick_replies',
      'quick_reply_response',
      'list_picker_response',
      'time_picker_response',
      'wab_interactive_response',
    ]) {
      assert.ok(
        values.some((v) => field in v),
        field,
      );
    }
  });
});
