import fs from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts } from '@/db/schema';
import { env } from '@/env';
import { createAccount } from '@/lib/accounts/create-account';
import { passwordProblem } from '@/lib/auth/password-policy';
import { randomToken } from '@/lib/util/ids';
import { seedDemo } from './seed-demo';

const DEMO_EMAIL = 'admin@demo.test';

/**
 * On a fresh database: ADMIN_EMAIL and ADMIN_PASSWORD create the first account and its platform
 * administrator; with neither set, a demo account with sample data is created and its login printed
 * (and kept in DATA_DIR/../demo-login.txt so later starts can print it again).
 */
export async function bootstrap(db: Db): Promise<void> {
  const e = env();
  // Checked on every start, not only the first: a weak password in the environment is refused.
  const weak = e.ADMIN_PASSWORD === undefined ? null : passwordProblem(e.ADMIN_PASSWORD, e.ADMIN_EMAIL ? [e.ADMIN_EMAIL] : []);
  if (weak) throw new Error(`ADMIN_PASSWORD ${weak}.`);
  const [{ n }] = await db.select({ n: count() }).from(accounts);
  const loginFile = path.join(path.dirname(path.resolve(e.DATA_DIR)), 'demo-login.txt');
  if (n > 0) {
    if (!e.DATABASE_URL && fs.existsSync(loginFile)) banner(fs.readFileSync(loginFile, 'utf8').trim().split('\n'));
    return;
  }
  if (e.ADMIN_EMAIL && e.ADMIN_PASSWORD) {
    await createAccount(db, { name: 'Default', adminEmail: e.ADMIN_EMAIL, adminPassword: e.ADMIN_PASSWORD, isPlatformAdmin: true });
    banner([`Administrator created: ${e.ADMIN_EMAIL} (password from ADMIN_PASSWORD)`]);
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
  const demo = await seedDemo(db, { accountId: account.id });
  const lines = [
    `Admin login:  ${DEMO_EMAIL}  /  ${password}`,
    `Demo bot API key (POST /api/v1/authorize): ${demo.apiKey}`,
    `Demo bot signing secret: ${demo.signingSecret}`,
  ];
  if (!e.DATABASE_URL) {
    fs.mkdirSync(path.dirname(loginFile), { recursive: true });
    fs.writeFileSync(loginFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  }
  banner(lines);
}

function banner(lines: string[]) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const rule = '='.repeat(width);
  console.log(`\n${rule}\n${lines.map((l) => `  ${l}`).join('\n')}\n${rule}\n`);
}
