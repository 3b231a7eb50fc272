import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type RecordingLineInput, recordingLineSchema } from '@/contracts/admin/schemas/recording';
import { diffChat } from './diff-chat';
import { checkThresholds, summarizeDiff } from './summarize-diff';

const line = (turns: RecordingLineInput['turns'], extra: Partial<RecordingLineInput> = {}) =>
  recordingLineSchema.parse({
    format: 'va-chat-recording',
    version: 1,
    id: 'c1',
    channel: 'livechat',
    customer: { destination_id: 'cust-1' },
    turns,
    ...extra,
  });
const say = (text: string) => ({ type: 'message' as const, text });

test('the same turns diff to nothing; volatile text counts as unchanged unless exact is asked', () => {
  const a = line([{ customer: [{ text: 'hi' }], bot: { actions: [say('Ticket 12 opened')], latency_ms: 40 } }]);
  const b = line([{ customer: [{ text: 'hi' }], bot: { actions: [say('Ticket  13 opened')], latency_ms: 55 } }]);
  const d = diffChat(a, b);
  assert.equal(d.changed, false);
  assert.equal(d.turns[0].text_exact_equal, false);
  assert.equal(d.turns[0].text_normalised_equal, true);
  assert.equal(diffChat(a, b, { text: 'exact' }).first_changed_turn, 1);
});

test('a dropped transfer is a changed handover decision, named at its turn', () => {
  const hi = { customer: [{ text: 'hi' }], bot: { actions: [say('Hello')] } };
  const a = line([
    hi,
    { customer: [{ text: 'I want a refund' }], bot: { actions: [say('Connecting you'), { type: 'transfer', team: 'Support' }] } },
    { customer: [{ text: 'still there?' }], bot: null },
  ]);
  const b = line([
    hi,
    { customer: [{ text: 'I want a refund' }], bot: { actions: [say('Noted')] } },
    { customer: [{ text: 'still there?' }], bot: { actions: [say('Noted')] } },
  ]);
  const d = diffChat(a, b);
  assert.equal(d.first_changed_turn, 2);
  assert.equal(d.handover_changed, true);
  assert.deepEqual(d.turns[1].changes, ['text', 'handover']);
  assert.deepEqual(d.turns[2].changes, ['reached']);
  const summary = summarizeDiff([d, diffChat(a, a)]);
  assert.equal(summary.chats_changed, 1);
  assert.equal(summary.handover_changed_chats, 1);
  assert.deepEqual(checkThresholds(summary, { failOn: ['handover'] }), ['1 chat(s) with a changed handover']);
  assert.deepEqual(checkThresholds(summary, { failOn: ['close'], maxChangedChats: 1 }), []);
});

test('turns the recording did not record, and kinds it did not see, are not compared', () => {
  const a = line([{ customer: [{ text: 'hi' }] }, { customer: [{ text: 'x' }], bot: { actions: [say('ok')] } }], {
    recorded_actions: ['message', 'transfer', 'close'],
  });
  const b = line([
    { customer: [{ text: 'hi' }], bot: { actions: [say('anything')] } },
    { customer: [{ text: 'x' }], bot: { actions: [{ type: 'tags', tags: ['new'] }, say('ok')] } },
  ]);
  const d = diffChat(a, b);
  assert.equal(d.changed, false);
  assert.equal(d.turns[0].compared, false);
});

test('other quick replies, close outcome and transfer target are each named', () => {
  const a = line([
    {
      customer: [{ text: 'x' }],
      bot: {
        actions: [
          { type: 'message', text: 'pick', quick_replies: [{ title: 'A', payload: 'a' }] },
          { type: 'close', outcome: 'resolved' },
        ],
      },
    },
  ]);
  const b = line([
    {
      customer: [{ text: 'x' }],
      bot: {
        actions: [
          { type: 'message', text: 'pick', quick_replies: [{ title: 'B', payload: 'b' }] },
          { type: 'close', outcome: 'spam' },
        ],
      },
    },
  ]);
  assert.deepEqual(diffChat(a, b).turns[0].changes, ['quick_replies', 'close']);
  const t1 = line([{ customer: [{ text: 'x' }], bot: { actions: [{ type: 'transfer', team: 'Support' }] } }]);
  const t2 = line([{ customer: [{ text: 'x' }], bot: { actions: [{ type: 'transfer', team: 'Billing' }] } }]);
  assert.deepEqual(diffChat(t1, t2).turns[0].changes, ['transfer']);
});
