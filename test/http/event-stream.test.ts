import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type EventStream, type SseWriter, sseStream } from '@/platform/realtime/sse-stream';

// The Server-Sent Events body as each entry takes it: straight into node:http's answer (`npm
// start`) and as a web ReadableStream (the Next route), over a real socket. What must hold on both:
// a client that stops reading stops the writer (its buffer is bounded), everything arrives once it
// reads again, and the client leaving ends the stream and runs its cleanups.

const EVENTS = 4_000;
const PAYLOAD = 'x'.repeat(8_192);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `p`, or a failure naming `what` after `ms`: a lost answer or end fails the test instead of hanging it. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

type Run = { sent: number; ended: boolean };

/** A stream that sends EVENTS events as fast as the client takes them, each after `room()`. */
function flood(run: Run): EventStream {
  return sseStream({
    what: 'test',
    bufferBytes: 64 * 1024,
    run: async (sse: SseWriter) => {
      for (let i = 0; i < EVENTS && !sse.closed; i++) {
        await sse.room();
        sse.send('n', { i, payload: PAYLOAD }, i);
        run.sent++;
      }
      sse.close();
    },
  }).onEnd(() => {
    run.ended = true;
  });
}

for (const entry of ['node', 'web'] as const) {
  describe(`event stream through the ${entry} entry`, () => {
    let server: http.Server;
    let base: string;
    let current: Run;
    before(async () => {
      server = http.createServer((_req, res) => {
        current = { sent: 0, ended: false };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const body = flood(current);
        if (entry === 'node') body.toNode(res);
        else {
          // What Next does with a Response body: read it and write each chunk, waiting for drain.
          const reader = body.toWeb().getReader();
          res.once('close', () => void reader.cancel().catch(() => {}));
          const pump = async () => {
            for (;;) {
              const next = await reader.read();
              if (next.done) return res.end();
              if (!res.write(next.value)) await new Promise((r) => res.once('drain', r));
            }
          };
          void pump().catch(() => res.destroy());
        }
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('stops writing while the client does not read, then sends every event in order once it does', async () => {
      const res = await within(new Promise<http.IncomingMessage>((resolve) => http.get(base, resolve)), 10_000, 'the answer');
      res.pause();
      await sleep(1_000);
      const whilePaused = current.sent;
      await sleep(500);
      // The socket's buffers take some (a few MB on loopback), then the writer waits for room.
      assert.equal(current.sent, whilePaused, 'the writer went on while the client read nothing');
      assert.ok(whilePaused < EVENTS, `all ${EVENTS} events were written to a client that read none`);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      const ended = new Promise((r) => res.once('end', r));
      res.resume();
      await within(ended, 30_000, 'the end of the stream');
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      assert.equal(ids.length, EVENTS);
      assert.ok(
        ids.every((id, k) => id === k),
        'events out of order or repeated',
      );
      assert.equal(current.ended, true);
    });

    it('ends the stream and runs its cleanups when the client leaves', async () => {
      const req = http.get(base);
      const res = await within(new Promise<http.IncomingMessage>((resolve) => req.once('response', resolve)), 10_000, 'the answer');
      res.pause();
      await sleep(300);
      assert.equal(current.ended, false);
      req.destroy();
      for (let i = 0; i < 50 && !current.ended; i++) await sleep(100);
      assert.equal(current.ended, true, 'the stream did not end when its client left');
      const sent = current.sent;
      await sleep(300);
      assert.equal(current.sent, sent, 'the writer went on after the client left');
    });
  });
}
