import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { n: number; method: string; url: string; headers: http.IncomingHttpHeaders; raw: string; body: any; at: number };
/** `hang`: never answer (a timeout for the sender). */
type Reply = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> } | { hang: true };
export type Handler = (req: Received) => Reply | Promise<Reply>;

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A real webhook receiver on 127.0.0.1 and a random port. It records every request it reads;
 * `handler` chooses each answer (default 200 "ok"). `down` makes it drop every connection unread,
 * as a receiver that is not there.
 */
export async function startReceiver(handler: Handler = () => ({ status: 200, body: 'ok' })) {
  const requests: Received[] = [];
  let current = handler;
  let down = false;
  let dropped = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // leave the raw text for the assertion to show
      }
      const r: Received = {
        n: requests.length + 1,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        body,
        at: Date.now(),
      };
      requests.push(r);
      const reply = await current(r);
      if ('hang' in reply) return;
      const send = () => res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? '');
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on('connection', (socket) => {
    if (down) {
      dropped++;
      socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    /** Requests it is answering now. */
    get inFlight() {
      return inFlight;
    },
    /** Most requests it was answering at one time. */
    get maxInFlight() {
      return maxInFlight;
    },
    /** Connections dropped while down. */
    get dropped() {
      return dropped;
    },
    setHandler(h: Handler) {
      current = h;
    },
    setDown(value: boolean) {
      down = value;
      if (value) server.closeAllConnections();
    },
    /** Transaction ids in arrival order, the first arrival of each only. */
    firstArrivals(): string[] {
      const seen = new Set<string>();
      for (const r of requests) seen.add(String(r.headers['webhook-id']));
      return [...seen];
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
