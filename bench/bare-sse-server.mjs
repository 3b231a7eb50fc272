// The ceiling of bench:open-widgets: a bare node:http server holding Server-Sent Events streams as
// the widget's route does (headers, a retry line, the chat's state, a comment every 25 s from a
// timer per stream), and nothing else. Listens on 127.0.0.1:$PORT; prints `ready`.
// `node bench/bare-sse-server.mjs hold <n> <addresses>` is its clients instead (a process of their
// own, so that neither the server's memory nor the bench's open-file limit counts them): n streams
// to $PORT from 127.1.x.y source addresses; prints `held` once all are open.
import http from 'node:http';

const HEARTBEAT_MS = 25_000;
const PORT = Number(process.env.PORT);
process.on('SIGTERM', () => process.exit(0));

if (process.argv[2] === 'hold') {
  const n = Number(process.argv[3]);
  const addresses = Number(process.argv[4]);
  const addressOf = (i) => `127.1.${Math.floor((i % addresses) / 250)}.${((i % addresses) % 250) + 1}`;
  let open = 0;
  for (let i = 0; i < n; i++) {
    const req = http.get(`http://127.0.0.1:${PORT}/stream`, { agent: false, localAddress: addressOf(i) }, (res) => {
      res.resume();
      if (++open === n) console.log('held');
    });
    req.on('error', (err) => {
      console.error(`bare stream ${i}: ${err.message}`);
      process.exit(1);
    });
    if (i % 200 === 199) await new Promise((r) => setTimeout(r, 100));
  }
} else {
  const state = JSON.stringify({
    chat_id: '00000000-0000-4000-8000-000000000000',
    status: 'open',
    handled_by: 'bot',
    typing: null,
    messages: [{ id: 1, from: 'customer', text: 'hello', at: new Date().toISOString() }],
  });
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(`retry: 2000\n\nevent: chat\nid: 1\ndata: ${state}\n\n`);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.on('close', () => clearInterval(beat));
  });
  server.keepAliveTimeout = 0;
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  server.listen(PORT, '127.0.0.1', () => console.log('ready'));
}
