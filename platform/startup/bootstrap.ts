import { count } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts } from '@/db/schema';
import { env } from '@/env';
import { createAccount } from '@/lib/accounts/create-account';
import { passwordProblem } from '@/platform/auth/password-policy';
import { randomToken } from '@/platform/util/ids';
import { checkDemoLogin, demoBotWebhookUrl, demoLines, readDemoLogin, serviceUrl, writeDemoLogin } from './demo-login';
import { DEMO_AGENT_EMAIL, seedDemo } from './seed-demo';

const DEMO_EMAIL = 'admin@demo.test';

/**
 * On a fresh database: ADMIN_EMAIL and ADMIN_PASSWORD create the first account and its platform
 * administrator; with neither set, a demo account with sample data is created and its login printed
 * (and kept in DATA_DIR/../demo-login.txt, where the demo bot reads its credentials). Later starts
 * print the file again, checked against the database so a rotated key is never shown.
 */
export async function bootstrap(db: Db): Promise<void> {
  const e = env();
  // Checked on every start, not only the first: a weak password in the environment is refused.
  const weak = e.ADMIN_PASSWORD === undefined ? null : passwordProblem(e.ADMIN_PASSWORD, e.ADMIN_EMAIL ? [e.ADMIN_EMAIL] : []);
  if (weak) throw new Error(`ADMIN_PASSWORD ${weak}.`);
  const [{ n }] = await db.select({ n: count() }).from(accounts);
  if (n > 0) {
    const saved = e.DATABASE_URL ? null : readDemoLogin();
    if (saved) {
      const lines = demoLines(await checkDemoLogin(db, saved));
      writeDemoLogin(lines);
      banner(lines);
    }
    return;
  }
  if (e.ADMIN_EMAIL && e.ADMIN_PASSWORD) {
    await createAccount(db, { name: 'Default', adminEmail: e.ADMIN_EMAIL, adminPassword: e.ADMIN_PASSWORD, isPlatformAdmin: true });
    banner([`Administrator created: ${e.ADMIN_EMAIL} (password from ADMIN_PASSWORD)`, `Admin pages: ${serviceUrl()}/admin`]);
    return;
  }
  if (e.ADMIN_EMAIL || e.ADMIN_PASSWORD) {
    throw new Error('Set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither (for the demo account).');
  }
  const password = randomToken(12);
  const { account } = await createAccount(db, {
    name: 'Demo Contact Centre',
    adminEmail: DEMO_EMAIL,
    adminPassword: password,
    isPlatformAdmin: true,
  });
  const webhookUrl = demoBotWebhookUrl();
  const agentPassword = randomToken(12);
  const demo = await seedDemo(db, { accountId: account.id, webhookUrl, agentPassword });
  const lines = demoLines({
    adminLogin: `${DEMO_EMAIL}  /  ${password}`,
    agentLogin: `${DEMO_AGENT_EMAIL}  /  ${agentPassword}`,
    apiKey: demo.apiKey,
    signingSecret: demo.signingSecret,
    webhookUrl,
    vaId: demo.vaId,
    widgetAppId: demo.livechatAssetId,
  });
  if (!e.DATABASE_URL) writeDemoLogin(lines);
  banner(lines);
}

function banner(lines: string[]) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const rule = '='.repeat(width);
  console.log(`\n${rule}\n${lines.map((l) => `  ${l}`).join('\n')}\n${rule}\n`);
}
