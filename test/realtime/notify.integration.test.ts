import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectRealtime, disconnectRealtime, payloadsOf, publish, SharedDetail, subscribe, wakesOf } from '@/platform/realtime/realtime';
import { setupTestDatabase } from '../support/db';
import { describeOrSkip } from '../support/describe-or-skip';
import { needsPostgres } from '../support/two-instances';

// What one instance tells the others: every topic it published, however many at once, and never
// the wake of everything (`*`) for a batch that merely did not fit in one notification.

/** A batch of bare wakes, as `publish` without `share` queues them. */
const bare = (list: string[]) => new Map<string, string[] | null>(list.map((t) => [t, null]));

const topics = (n: number) => Array.from({ length: n }, (_, i) => `chat:${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);

describe('realtime notification payloads', () => {
  it('splits a batch larger than one payload over several, each topic once, none past the limit', () => {
    const sent = topics(1_000);
    const payloads = payloadsOf(bare(sent), 'sender');
    assert.ok(payloads.length > 1, 'a thousand topics fit in one payload?');
    for (const p of payloads) assert.ok(p.length <= 7_800, `payload of ${p.length} bytes`);
    const got = payloads.flatMap((p) => p.split(' ').slice(1));
    assert.deepEqual(got, sent);
    assert.ok(!got.includes('*'));
  });

  it('sends `*` only when it was published, or a topic cannot be written', () => {
    assert.deepEqual(payloadsOf(bare(['chat:a', '*']), 'sender'), ['sender *']);
    assert.deepEqual(payloadsOf(bare(['chat:a', 'two words']), 'sender'), ['sender *']);
    assert.deepEqual(payloadsOf(bare(['chat:a', 'chats:1']), 'sender'), ['sender chat:a chats:1']);
    assert.deepEqual(payloadsOf(bare(['chat:a', '=x']), 'sender'), ['sender *']);
  });

  it('carries shared details after their topic, in order, and wakes once per detail; a topic too big for its details goes bare', () => {
    const detail = (n: number) => JSON.stringify({ kind: 'chunk', seq: n, text: `piece ${n} with spaces` });
    const batch = new Map<string, string[] | null>([
      ['chat:a', [detail(1), detail(2)]],
      ['chats:1', null],
      ['chat:b', ['x'.repeat(8_000)]],
    ]);
    const [payload, ...more] = payloadsOf(batch, 'sender');
    assert.deepEqual(more, []);
    const [sender, ...tokens] = payload.split(' ');
    assert.equal(sender, 'sender');
    // The release before reads every token as a topic: chat:a, chats:1 and chat:b are among them.
    for (const topic of ['chat:a', 'chats:1', 'chat:b']) assert.ok(tokens.includes(topic));
    const wakes = wakesOf(tokens);
    assert.deepEqual(
      wakes.map(([topic, d]) => [topic, d instanceof SharedDetail ? d.text : null]),
      [
        ['chat:a', detail(1)],
        ['chat:a', detail(2)],
        ['chats:1', null],
        ['chat:b', null],
      ],
    );
  });
});

describeOrSkip('realtime across instances (PostgreSQL)', needsPostgres, () => {
  const t = setupTestDatabase();
  const heard: string[] = [];
  let unlisten: (() => Promise<void>) | undefined;
  before(async () => {
    await connectRealtime(t.db);
    // Another instance's ear: the same channel, on the same database.
    const client = (
      t.db as unknown as { $client: { listen: (c: string, fn: (p: string) => void) => Promise<{ unlisten: () => Promise<void> }> } }
    ).$client;
    unlisten = (await client.listen('va_outbox', (payload) => heard.push(payload))).unlisten;
  });
  after(async () => {
    await unlisten?.();
    await disconnectRealtime();
  });

  it('delivers every topic of a burst too large for one notification, and no wake of everything', async () => {
    const sent = topics(3_000);
    // One publish per topic, all in one tick: they go together, split over as many payloads as they need.
    for (const topic of sent) publish([topic]);
    const got = new Set<string>();
    for (let i = 0; i < 100 && got.size < sent.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      for (const p of heard.splice(0)) for (const topic of p.split(' ').slice(1)) got.add(topic);
    }
    assert.ok(!got.has('*'), 'a batch went out as a wake of everything');
    assert.equal(got.size, sent.length);
  });

  it('shares a detail with the other instances for its topic only, and sends a topic also published bare without it', async () => {
    heard.length = 0;
    publish(['chat:shared', 'chats:7'], { local: true }, { topic: 'chat:shared', text: '{"kind":"chunk"}' });
    publish(['chat:plain'], { local: true }, { topic: 'chat:plain', text: 'dropped' });
    publish(['chat:plain']);
    let got: string[] = [];
    for (let i = 0; i < 50 && !got.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      got = heard.splice(0);
    }
    assert.equal(got.length, 1);
    const wakes = wakesOf(got[0].split(' ').slice(1));
    assert.deepEqual(
      wakes.map(([topic, d]) => [topic, d?.text ?? null]),
      [
        ['chat:shared', '{"kind":"chunk"}'],
        ['chats:7', null],
        ['chat:plain', null],
      ],
    );
  });

  it("hands another instance's shared detail to this one's listeners of the topic, and a bare wake without one", async () => {
    const client = (t.db as unknown as { $client: { notify: (c: string, p: string) => Promise<unknown> } }).$client;
    const got: unknown[] = [];
    const off = subscribe('chat:from-b', (_topic, detail) => got.push(detail));
    try {
      const text = JSON.stringify({ kind: 'chunk', messageId: 1, seq: 1, text: 'a b' });
      await client.notify('va_outbox', `another-instance chat:from-b =${Buffer.from(text).toString('base64url')} chat:from-b`);
      for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(got.length, 2);
      assert.ok(got[0] instanceof SharedDetail);
      assert.equal((got[0] as SharedDetail).text, text);
      assert.equal(got[1], undefined);
    } finally {
      off();
    }
  });

  it("sends the publishes of one tick (a commit's events and its chats) in one notification", async () => {
    heard.length = 0;
    publish(['events:1']);
    publish(['chat:one', 'chats:1']);
    let got: string[] = [];
    for (let i = 0; i < 50 && !got.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      got = heard.splice(0);
    }
    // Anything else would have arrived with it: the two were sent in one NOTIFY, or not at all.
    await new Promise((r) => setTimeout(r, 200));
    got.push(...heard.splice(0));
    assert.deepEqual(
      got.map((p) => p.split(' ').slice(1)),
      [['events:1', 'chat:one', 'chats:1']],
    );
  });
});
