// quick latency probe on PG with timing of each stage
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_ENGINE: 'off', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' });
const { default: postgres } = await import('postgres');
const { openPostgres, setHandle } = await import('@/db/client');
const { startEmbeddedEngine, stopEmbeddedEngine } = await import('@/lib/delivery/embedded-engine');
const { createTenant } = await import('@/test/support/tenant');
const { botApi } = await import('@/test/support/bot-api');
const { startReceiver } = await import('./test/delivery/receiver');
const admin = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
const name = `va_probe_${randomBytes(3).toString('hex')}`;
await admin.unsafe(`CREATE DATABASE ${name}`);
const h = await openPostgres(`postgres://postgres@127.0.0.1:5432/${name}`, { migrate: true });
setHandle(h);
const rec = await startReceiver();
const t = await createTenant(h.db, { webhookUrl: rec.url });
const chats: string[] = [];
for (let i = 0; i < 10; i++) {
  const r = await botApi('POST', '/chats', { token: t.token, body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+1' + i }, assignee: t.bot.user.loginId } });
  chats.push(r.body.response.chat_id);
}
await startEmbeddedEngine({ db: h.db });
while (rec.requests.length < 10) await new Promise((r) => setTimeout(r, 10));
const lat: number[] = [];
for (let i = 0; i < 30; i++) {
  const n = rec.requests.length;
  const t0 = performance.now();
  const r = await botApi('POST', `/chats/${chats[i % 10]}/messages`, { token: t.token, body: { type: 'inbound', text: 'x' + i } });
  const t1 = performance.now();
  while (rec.requests.length <= n) await new Promise((r) => setImmediate(r));
  const t2 = performance.now();
  lat.push(t2 - t0);
  if (i % 10 === 0) console.log(r.status, 'post', (t1 - t0).toFixed(1), 'arrive', (t2 - t0).toFixed(1));
}
console.log(lat.map((x) => x.toFixed(0)).join(' '));
await stopEmbeddedEngine();
for (let round = 0; round < 3; round++) {
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < 100; i++) await botApi('POST', `/chats/${chats[i % 10]}/messages`, { token: t.token, body: { type: 'inbound', text: 'y' + i } });
const c = process.cpuUsage(c0);
console.log('100 POSTs engine off: wall/req', ((performance.now() - t0) / 100).toFixed(1), 'cpu/req', ((c.user + c.system) / 1000 / 100).toFixed(1));
}
await startEmbeddedEngine({ db: h.db });
await stopEmbeddedEngine();
await rec.close();
await h.close();
await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
