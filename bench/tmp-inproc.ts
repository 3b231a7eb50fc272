import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { NextRequest } from 'next/server';
import { openPostgres, setHandle } from '@/db/client';
import { chats, customers } from '@/db/schema';
import { createTenant } from '@/test/support/tenant';
import { botApiHandler } from '@/app/api/v1/_routers';
import { authenticateToken } from '@/lib/auth/authenticate-token';
import { updateChat } from '@/lib/chats/update-chat';
import { loadChatOrFail } from '@/lib/chats/chat-view';
import { consumeRateLimit } from '@/lib/http/rate-limit';

process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.LOG_LEVEL = 'warn';
process.env.RATE_LIMIT_PER_MINUTE = '100000000';
const base = 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = postgres(base, { max: 1, onnotice: () => {} });
const name = `va_prof_${randomBytes(3).toString('hex')}`;
await admin.unsafe(`create database ${name}`);
try {
  const h = await openPostgres(base.replace(/postgres$/, name), { migrate: true });
  setHandle(h);
  const db = h.db;
  const t = await createTenant(db);
  const cs = await db.insert(customers).values(Array.from({ length: 200 }, (_, i) => ({ accountId: t.account.id, channel: 'sms' as const, destinationId: `+1${i}`, name: 'c' }))).returning({ id: customers.id });
  const ids = cs.map(() => crypto.randomUUID());
  await db.insert(chats).values(cs.map((c, i) => ({ id: ids[i], accountId: t.account.id, teamId: t.botTeam.id, status: 'picked' as const, channel: 'sms' as const, assetId: t.assets.sms.id, customerId: c.id, assigneeId: t.bot.user.id })));
  const N = Number(process.env.N ?? 3000);
  const conc = Number(process.env.C ?? 10);
  async function measure(label: string, fn: (i: number) => Promise<unknown>) {
    for (let i = 0; i < 300; i++) await fn(i);
    const c0 = process.cpuUsage(); const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (next < N) await fn(next++); }));
    const c = process.cpuUsage(c0); const ms = performance.now() - t0;
    console.log(`${label.padEnd(40)} cpu ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/op  wall ${(ms / N).toFixed(3)} ms/op`);
  }
  const hdr = { access_token: t.token, team_id: String(t.botTeam.id), 'content-type': 'application/json' };
  const body = JSON.stringify({ tags: ['a', 'b', 'c'] });
  const which = (process.env.ONLY ?? 'full,auth,rl,update,view,noop').split(',');
  if (which.includes('full')) await measure('PATCH via botApiHandler', async (i) => {
    const req = new NextRequest(`http://localhost/api/v1/chats/${ids[i % ids.length]}`, { method: 'PATCH', headers: { ...hdr, 'content-length': String(body.length) }, body });
    const res = await botApiHandler(req);
    if (res.status !== 200) throw new Error(await res.text());
    await res.text();
  });
  if (which.includes('auth')) await measure('authenticateToken', () => authenticateToken(db, { token: t.token }));
  if (which.includes('rl')) await measure('consumeRateLimit', () => consumeRateLimit('account:1'));
  if (which.includes('update')) await measure('updateChat (domain)', (i) => updateChat(db, { accountId: t.account.id, chatId: ids[i % ids.length], teamId: t.botTeam.id, patch: { tags: ["a", "b"] }, actorUserId: t.bot.user.id }));
  if (which.includes('view')) await measure('loadChatOrFail', (i) => loadChatOrFail(db, { accountId: t.account.id, chatId: ids[i % ids.length] }));
  if (which.includes('noop')) await measure('GET unknown path (404 via handler)', async (i) => {
    const res = await botApiHandler(new NextRequest(`http://localhost/api/v1/nope/${i}`, { method: 'GET' }));
    await res.text();
  });
  await h.close();
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
