/**
 * A server process for tests that drive the service from outside over HTTP without a production
 * build: the real instrumentation hook runs (configuration, database and migrations, first account
 * from ADMIN_EMAIL/ADMIN_PASSWORD, delivery engine, shutdown), then one node:http server answers
 * the bot API through the entry `npm start` uses (`globalThis.__vaNodeEntries`, the same pipeline
 * and routes) and the admin API through the same node:http adapter on its own pipeline. Pages are
 * not served. Listens on 127.0.0.1:PORT and prints `{"listening": <port>}` once it accepts calls.
 */
import http from 'node:http';
import { adminApiHandler } from '@/app/api/admin/_routers';
import { register } from '@/instrumentation';
import { type NodeEntries, serveNode } from '@/platform/http/node-entry';

await register();
const entries = (globalThis as { __vaNodeEntries?: NodeEntries }).__vaNodeEntries;
if (!entries) throw new Error('instrumentation.ts did not expose the API entry');

const server = http.createServer((req, res) => {
  if (entries.serve(req, res)) return;
  if (req.url?.startsWith('/api/admin/')) {
    void serveNode(adminApiHandler.core, req, res).catch(() => res.destroy());
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not served by this test server');
});
server.on('clientError', entries.clientError);
server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: (server.address() as { port: number }).port })}\n`);
});
