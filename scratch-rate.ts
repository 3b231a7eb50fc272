import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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
for (let i = 0; i < 100; i++) {
  const r = await botApi('POST', '/chats', { token: t.token, body: { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+1' + i }, assignee: t.bot.user.loginId } });
  chats.push(r.body.response.chat_id);
}
async function run(rate: number, seconds: number, label: string) {
  const h2 = monitorEventLoopDelay({ resolution: 5 }); h2.enable();
  const lat: number[] = [];
  const ps: Promise<void>[] = [];
  const t0 = performance.now() + 20;
  const c0 = process.cpuUsage();
  for (let i = 0; i < rate * seconds; i++) {
    const w = t0 + (i * 1000) / rate - performance.now();
    if (w > 0) await new Promise((r) => setTimeout(r, w));
    const s = performance.now();
    ps.push(botApi('POST', `/chats/${chats[i % 100]}/messages`, { token: t.token, body: { type: 'inbound', text: 'z' + i } }).then(() => { lat.push(performance.now() - s); }));
  }
  await Promise.all(ps);
  const c = process.cpuUsage(c0);
  h2.disable();
  lat.sort((a, b) => a - b);
  console.log(JSON.stringify((globalThis as any).__stats)); (globalThis as any).__stats = undefined;
  console.log(label, 'rate', rate, 'post p50', lat[Math.floor(lat.length / 2)].toFixed(1), 'p99', lat[Math.floor(lat.length * 0.99)].toFixed(1), 'cpu/req', ((c.user + c.system) / 1000 / lat.length).toFixed(2), 'loop delay p50/p99 ms', (h2.percentile(50) / 1e6).toFixed(1), (h2.percentile(99) / 1e6).toFixed(1));
}
await run(50, 3, 'warm');
await run(50, 5, 'engine off');
await run(20, 5, 'engine off');
await startEmbeddedEngine({ db: h.db });
await run(50, 5, 'engine on');
await run(20, 5, 'engine on');
await stopEmbeddedEngine();
await rec.close();
await h.close();
await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
