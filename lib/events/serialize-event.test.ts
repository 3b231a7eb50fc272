import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventMessageEntrySchema, eventSchemas } from '@/contracts/bot/schemas/events';
import { messageSchema } from '@/contracts/bot/schemas/message';
import { EVENT_TYPES } from '@/contracts/enums';
import { ENTRY_KEY_ORDER, EVENT_KEY_ORDER, MESSAGE_KEY_ORDER, serializeEvent } from './serialize-event';

/**
 * The orders the specification's tables give, copied here on their own so that the serializer's
 * lists are checked against them rather than against themselves.
 */
const SPEC_ENVELOPE = [
  'event_type',
  'channel',
  'chat_id',
  'asset',
  'destination_id',
  'thread_id',
  'browserfingerprint',
  'subject',
  'posted_on',
  'payload',
  'transaction_id',
];
const SPEC_ASSIGNED_PAYLOAD = ['skill', 'messages'];
const SPEC_ENTRY = ['transid', 'type', 'text', 'attachments', 'timestamp', 'interactive_response', 'wab_interactive_response'];
const SPEC_MESSAGE = [
  'type',
  'abc_sub_type',
  'livechat_sub_type',
  'messenger_sub_type',
  'list_picker_response',
  'time_picker_response',
  'template_name',
  'text',
  'attachment',
  'quick_replies',
  'quick_reply_response',
  'timestamp',
];

const SCHEMA_OF = {
  'chat.assigned': eventSchemas.ChatAssignedEvent,
  'message.received': eventSchemas.MessageReceivedEvent,
  'chat.closed': eventSchemas.ChatClosedEvent,
  'chat.unassigned': eventSchemas.ChatUnassignedEvent,
  'approval.decided': eventSchemas.ApprovalDecidedEvent,
  'approval.expired': eventSchemas.ApprovalExpiredEvent,
  'handover.requested': eventSchemas.HandoverRequestedEvent,
} as const;

/** `sub` appears in `list` in the same relative order, every key of it present. */
function assertSubsequence(list: readonly string[], sub: readonly string[], what: string) {
  const positions = sub.map((k) => list.indexOf(k));
  assert.ok(
    positions.every((p) => p >= 0),
    `${what}: missing ${sub.filter((_, i) => positions[i] < 0).join(', ')}`,
  );
  assert.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
    `${what}: ${list.join(', ')} does not keep the order ${sub.join(', ')}`,
  );
}

const sorted = (keys: Iterable<string>) => [...keys].sort();

/** Keys in the order jsonb keeps them: shorter first, then bytewise. */
function jsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrder);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(keys.map((k) => [k, jsonbOrder((value as Record<string, unknown>)[k])]));
  }
  return value;
}

describe('event key order', () => {
  it('has one list per shape naming exactly the fields of its schema', () => {
    for (const type of EVENT_TYPES) {
      const schema = SCHEMA_OF[type];
      assert.deepEqual(sorted(EVENT_KEY_ORDER[type].body), sorted(Object.keys(schema.shape)), type);
      assert.deepEqual(sorted(EVENT_KEY_ORDER[type].payload), sorted(Object.keys(schema.shape.payload.shape)), `${type} payload`);
    }
    assert.deepEqual(sorted(ENTRY_KEY_ORDER), sorted(Object.keys(eventMessageEntrySchema.shape)));
    assert.deepEqual(sorted(MESSAGE_KEY_ORDER), sorted(Object.keys(messageSchema.shape)));
  });

  it("keeps the specification's order, our own fields placed between", () => {
    for (const type of EVENT_TYPES) assertSubsequence(EVENT_KEY_ORDER[type].body, SPEC_ENVELOPE, type);
    assertSubsequence(EVENT_KEY_ORDER['chat.assigned'].payload, SPEC_ASSIGNED_PAYLOAD, 'chat.assigned payload');
    assertSubsequence(ENTRY_KEY_ORDER, SPEC_ENTRY, 'message entry');
    assertSubsequence(MESSAGE_KEY_ORDER, SPEC_MESSAGE, 'message');
  });

  it('writes a body read back from jsonb in that order, nested objects included', () => {
    const message = {
      transid: 'm-1',
      type: 'inbound',
      livechat_sub_type: 'quick_reply_response',
      quick_reply_response: { request_identifier: 'r-1', options: [{ title: 'Card', payload: 'pay_card' }] },
      author: null,
      timestamp: '2026-03-04T15:30:00.000Z',
    };
    const stored = jsonbOrder({
      event_type: 'message.received',
      channel: 'livechat',
      chat_id: 'c-1',
      asset: '7',
      asset_address: null,
      destination_id: 'lc-1',
      team_id: 3,
      thread_id: 't-1',
      browserfingerprint: 'b-1',
      subject: '',
      payload: {
        messages: [
          {
            transid: 'x-1',
            type: 'interactive',
            text: '',
            attachments: [],
            timestamp: message.timestamp,
            interactive_response: { title: 'Card', postback: 'pay_card' },
            message,
          },
        ],
      },
      transaction_id: 'x-1',
    }) as Record<string, unknown>;
    assert.notDeepEqual(Object.keys(stored), EVENT_KEY_ORDER['message.received'].body, 'the jsonb order differs to begin with');

    const body = JSON.parse(serializeEvent(stored, new Date('2026-03-04T15:31:00Z')));
    assert.deepEqual(
      Object.keys(body),
      EVENT_KEY_ORDER['message.received'].body.filter((k) => k in body),
    );
    const [entry] = body.payload.messages;
    assert.deepEqual(Object.keys(entry), ['transid', 'type', 'text', 'attachments', 'timestamp', 'interactive_response', 'message']);
    assert.deepEqual(Object.keys(entry.interactive_response), ['title', 'postback']);
    assert.deepEqual(Object.keys(entry.message), ['transid', 'type', 'livechat_sub_type', 'quick_reply_response', 'author', 'timestamp']);
    assert.deepEqual(Object.keys(entry.message.quick_reply_response), ['request_identifier', 'options']);
    assert.deepEqual(Object.keys(entry.message.quick_reply_response.options[0]), ['title', 'payload']);
    assert.equal(body.posted_on, '2026-03-04T15:31:00.000Z');
  });

  it('keeps a key no list names, after the listed ones', () => {
    const body = JSON.parse(
      serializeEvent({ extra: 1, event_type: 'chat.closed', payload: { chat_outcome: '', timestamp: 'x' } }, new Date(0)),
    );
    assert.deepEqual(Object.keys(body), ['event_type', 'posted_on', 'payload', 'extra']);
    assert.deepEqual(Object.keys(body.payload), ['timestamp', 'chat_outcome']);
  });
});
