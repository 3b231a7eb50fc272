import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectRealtime, disconnectRealtime, payloadsOf, publish } from '@/platform/realtime/realtime';
import { setupTestDatabase } from '../support/db';
import { describeOrSkip } from '../support/describe-or-skip';
import { needsPostgres } from '../support/two-instances';

// What one instance tells the others: every topic it published, however many at once, and never
// the wake of everything (`*`) for a batch that merely did not fit in one notification.

const topics = (n: number) => Array.from({ length: n }, (_, i) => `chat:${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);

describe('realtime notification payloads', () => {
  it('splits a batch larger than one payload over several, each topic once, none past the limit', () => {
    const sent = topics(1_000);
    const payloads = payloadsOf(sent, 'sender');
    assert.ok(payloads.length > 1, 'a thousand topics fit in one payload?');
    for (const p of payloads) assert.ok(p.length <= 7_800, `payload of ${p.length} bytes`);
    const got = payloads.flatMap((p) => p.split(' ').slice(1));
    assert.deepEqual(got, sent);
    assert.ok(!got.includes('*'));
  });

  it('sends `*` only when it was published, or a topic cannot be written', () => {
    assert.deepEqual(payloadsOf(['chat:a', '*'], 'sender'), ['sender *']);
    assert.deepEqual(payloadsOf(['chat:a', 'two words'], 'sender'), ['sender *']);
    assert.deepEqual(payloadsOf(['chat:a', 'chats:1'], 'sender'), ['sender chat:a chats:1']);
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
