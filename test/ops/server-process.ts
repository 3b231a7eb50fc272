/**
 * A process started the way `next start` starts the app, for the shutdown and configuration
 * tests: a SIGTERM listener standing in for Next's own (close the server, exit 143) is registered
 * first, then the real instrumentation hook runs. With `seed: { webhookUrl, chats }` it then
 * creates a tenant and chats for its VA. Prints JSON lines.
 */
import { asc } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { events } from '@/db/schema';
import { register } from '@/instrumentation';
import { createBotChat } from '../delivery/helpers';
import { createTenant } from '../support/tenant';

type Options = { seed?: { webhookUrl: string; chats: number } };
const opts = JSON.parse(process.argv[2] ?? '{}') as Options;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

process.on('SIGTERM', () => {
  say({ frameworkCleanup: true });
  process.exit(143);
});
setInterval(() => {}, 60_000);

await register();
say({ started: process.pid });

if (opts.seed) {
  const db = await getDb();
  const t = await createTenant(db, { webhookUrl: opts.seed.webhookUrl });
  for (let i = 0; i < opts.seed.chats; i++) await createBotChat(t);
  const rows = await db.select({ id: events.id }).from(events).orderBy(asc(events.id));
  say({ seeded: rows.map((r) => r.id) });
}
