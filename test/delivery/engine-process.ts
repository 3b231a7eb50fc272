/**
 * A process that runs the embedded delivery engine, for the crash test: it can be killed with
 * SIGKILL at any moment, and stops cleanly on SIGTERM. Options come as JSON in argv[2]:
 * `{ dataDir }` (PGlite) or `{ databaseUrl }` (PostgreSQL), and optionally `seed: { webhookUrl, messages }`
 * to create a tenant, a chat and inbound messages once the engine runs. It prints JSON lines.
 */
import { asc, eq } from 'drizzle-orm';
import { closeDb, openPglite, openPostgres, setHandle } from '@/db/client';
import { events } from '@/db/schema';
import { startEmbeddedEngine, stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { createTenant } from '../support/tenant';
import { createBotChat, sendInbound } from './helpers';

type Options = { dataDir?: string; databaseUrl?: string; seed?: { webhookUrl: string; messages: number } };
const opts = JSON.parse(process.argv[2] ?? '{}') as Options;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

const handle = opts.databaseUrl ? await openPostgres(opts.databaseUrl, { migrate: true }) : await openPglite(opts.dataDir);
setHandle(handle);
const db = handle.db;

process.on('SIGTERM', async () => {
  await stopEmbeddedEngine();
  await closeDb();
  process.exit(0);
});
// PGlite holds no handle that keeps the event loop alive.
setInterval(() => {}, 60_000);

await startEmbeddedEngine();
say({ started: process.pid });

if (opts.seed) {
  const t = await createTenant(db, { webhookUrl: opts.seed.webhookUrl });
  const chatId = await createBotChat(t);
  for (let i = 1; i <= opts.seed.messages; i++) await sendInbound(t, chatId, `message ${i}`);
  const rows = await db
    .select({ transactionId: events.transactionId })
    .from(events)
    .where(eq(events.chatId, chatId))
    .orderBy(asc(events.seq));
  say({ seeded: { chatId, transactionIds: rows.map((r) => r.transactionId) } });
}
