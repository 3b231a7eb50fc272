import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { assets, users, virtualAgents } from '@/db/schema';
import { env } from '@/env';
import { sha256 } from '@/platform/util/ids';

/** The demo VA's login ID (seed-demo.ts names it "Demo Bot"). */
const DEMO_BOT_LOGIN_ID = 'va-demo-bot';

/**
 * What the demo prints on start and keeps in `.data/demo-login.txt`. The demo bot
 * (`npm run demo:bot`) reads the same file, so each line is `Label: value`.
 */
export type DemoLogin = {
  adminLogin: string;
  /** The demo agent's workspace sign-in (email / password); absent in files written before the workspace. */
  agentLogin?: string | null;
  /** null once the key was rotated after it was written here: a dead key is never shown. */
  apiKey: string | null;
  signingSecret: string | null;
};

const LABELS = {
  service: 'Service',
  admin: 'Admin login',
  agent: 'Agent workspace login',
  apiKey: 'Demo bot API key',
  signingSecret: 'Demo bot signing secret',
  webhook: 'Demo bot webhook',
  widget: 'Chat widget (write as a customer)',
} as const;

const ROTATED = 'rotated since it was written here';

function demoLoginFile(): string {
  return path.join(path.dirname(path.resolve(env().DATA_DIR)), 'demo-login.txt');
}

/** The URL the demo VA's webhook is first set to: where `npm run demo:bot` listens (the service's port + 1). */
export function demoBotWebhookUrl(): string {
  return `http://127.0.0.1:${env().PORT + 1}/webhook`;
}

export function serviceUrl(): string {
  return `http://localhost:${env().PORT}`;
}

function field(text: string, label: string): string | null {
  // Also reads the file as earlier versions wrote it ("Demo bot API key (POST /api/v1/authorize): vak_…").
  const match = text.match(new RegExp(`^${label}[^:\\n]*:\\s*(\\S.*)$`, 'm'));
  return match ? match[1].trim() : null;
}

export function readDemoLogin(file = demoLoginFile()): DemoLogin | null {
  // A file under DATA_DIR, known only at run time: not a source for the build to trace.
  if (!fs.existsSync(/*turbopackIgnore: true*/ file)) return null;
  const text = fs.readFileSync(/*turbopackIgnore: true*/ file, 'utf8');
  const apiKey = field(text, LABELS.apiKey);
  const secret = field(text, LABELS.signingSecret);
  return {
    adminLogin: field(text, LABELS.admin) ?? '(see the first start)',
    agentLogin: field(text, LABELS.agent)?.replace(/\s+\(\S+\/agent\)$/, '') ?? null,
    apiKey: apiKey?.startsWith('vak_') ? apiKey : null,
    signingSecret: secret?.startsWith('whsec_') ? secret : null,
  };
}

/**
 * Drops the demo bot's key or secret when an administrator rotated it since the file was written
 * (a key is good while it is the VA's key, or its previous one inside the overlap).
 */
export async function checkDemoLogin(
  db: Db,
  login: DemoLogin,
): Promise<DemoLogin & { webhookUrl: string | null; vaId: number | null; widgetAppId: number | null; vaDisabled?: boolean }> {
  const [va] = await db
    .select({
      id: virtualAgents.userId,
      enabled: users.enabled,
      accountId: users.accountId,
      webhookUrl: virtualAgents.webhookUrl,
      apiKeyHash: virtualAgents.apiKeyHash,
      previousApiKeyHash: virtualAgents.previousApiKeyHash,
      previousApiKeyExpiresAt: virtualAgents.previousApiKeyExpiresAt,
      signingSecret: virtualAgents.signingSecret,
    })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(users.loginId, DEMO_BOT_LOGIN_ID))
    .orderBy(virtualAgents.userId)
    .limit(1);
  if (!va) return { ...login, apiKey: null, signingSecret: null, webhookUrl: null, vaId: null, widgetAppId: null };
  const [livechat] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.accountId, va.accountId), eq(assets.channel, 'livechat')))
    .orderBy(asc(assets.id))
    .limit(1);
  const keyHash = login.apiKey ? sha256(login.apiKey) : null;
  const now = new Date();
  const keyLive =
    keyHash !== null &&
    (keyHash === va.apiKeyHash ||
      (keyHash === va.previousApiKeyHash && va.previousApiKeyExpiresAt !== null && va.previousApiKeyExpiresAt > now));
  return {
    adminLogin: login.adminLogin,
    agentLogin: login.agentLogin ?? null,
    apiKey: keyLive ? login.apiKey : null,
    // The secret in force is readable (delivery signs with it), but a rotated secret was shown once
    // to whoever rotated it: the file does not hand it out again.
    signingSecret: login.signingSecret === va.signingSecret ? login.signingSecret : null,
    webhookUrl: va.webhookUrl,
    vaId: va.id,
    widgetAppId: livechat?.id ?? null,
    vaDisabled: !va.enabled,
  };
}

/** The file's lines and the banner's: the URLs to open, the login, and how to start the demo bot. */
export function demoLines(
  login: DemoLogin & { webhookUrl: string | null; vaId: number | null; widgetAppId: number | null; vaDisabled?: boolean },
): string[] {
  const base = serviceUrl();
  const vaPage = login.vaId ? `${base}/admin/virtual-agents/${login.vaId}` : `${base}/admin/virtual-agents`;
  return [
    `${LABELS.service}: ${base}   (admin pages: ${base}/admin, bot guide and API reference: ${base}/docs)`,
    `${LABELS.admin}: ${login.adminLogin}`,
    ...(login.agentLogin ? [`${LABELS.agent}: ${login.agentLogin}   (${base}/agent)`] : []),
    login.apiKey
      ? `${LABELS.apiKey}: ${login.apiKey}`
      : `${LABELS.apiKey}: ${ROTATED}; rotate it again at ${vaPage} and start the bot with VA_API_KEY=<new key>`,
    login.signingSecret
      ? `${LABELS.signingSecret}: ${login.signingSecret}`
      : `${LABELS.signingSecret}: ${ROTATED}; rotate it again at ${vaPage} and start the bot with VA_SIGNING_SECRET=<new secret>`,
    `${LABELS.webhook}: ${login.webhookUrl ?? '(no demo bot)'}`,
    ...(login.widgetAppId ? [`${LABELS.widget}: ${base}/chat/${login.widgetAppId}`] : []),
    ...(login.vaDisabled
      ? [`The Demo Bot is disabled (${vaPage}): new chats go to people or your own VA; enable it there to use npm run demo:bot again.`]
      : [
          'Start the demo bot (another terminal): npm run demo:bot',
          'Until it runs, the demo chat’s events wait and are retried ("webhook attempt failed; will retry" in the log); once it answers, they arrive in order.',
        ]),
  ];
}

export function writeDemoLogin(lines: string[], file = demoLoginFile()) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}
