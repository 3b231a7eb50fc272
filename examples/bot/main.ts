// `npm run demo:bot`: starts the example bot with the demo's credentials. Each setting comes from
// the environment, else from .data/demo-login.txt (written by `npm start` on the embedded database,
// beside DATA_DIR when that is set; DEMO_LOGIN_FILE names another file):
//   VA_BASE_URL        the service, e.g. http://localhost:3000        (file: "Service: …")
//   VA_API_KEY         the VA's API key, vak_…                        (file: "Demo bot API key: …")
//   VA_SIGNING_SECRET  the VA's webhook signing secret, whsec_…       (file: "Demo bot signing secret: …")
//   VA_LOGIN_ID        the VA's login ID (default: asked of GET /api/v1/me)
//   BOT_PORT           the port to listen on                          (file: the port of "Demo bot webhook: …")
//   BOT_DELIVERY       `pull` (or the flag --pull): read GET /api/v1/events instead of listening;
//                      no webhook address needed (set the VA's delivery mode to pull)
//   HANDOVER_TEAM      the team to hand chats to (default Support)
//   BOT_STREAM=slow    (or --stream --slow) streams a word every 0.7 s: with turns on (docs/guide/turns.md)
//                      a customer's message sent meanwhile supersedes the reply in progress
//   BOT_STREAM=1       (or the flag --stream) demo of a language-model bot: replies are streamed
//                      a few words at a time, after a typing indicator with a status line
//   BOT_AI=1           (or the flag --ai) a bot on the AI SDK: each answer is `streamText(...)` on
//                      the SDK's mock model (no API key), sent as its UI message stream in one call
//   BOT_REGRESSION     `no-refund-handover` (or the flag --regression=no-refund-handover) plants a
//                      regression to try replays with: chats that mention a refund stay with the bot
import fs from 'node:fs';
import path from 'node:path';
import { startBot } from './bot';

// Where `npm start` writes it: next to its database directory (DATA_DIR, default .data/pglite).
const file = path.resolve(
  process.env.DEMO_LOGIN_FILE ?? path.join(path.dirname(path.resolve(process.env.DATA_DIR ?? '.data/pglite')), 'demo-login.txt'),
);
const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
const fromFile = (label: string) => saved.match(new RegExp(`^${label}[^:\\n]*:\\s*(\\S+)`, 'm'))?.[1];

function setting(name: string, value: string | undefined, shape: RegExp, hint: string): string {
  if (value && shape.test(value)) return value;
  console.error(`${name} is not set and ${file} has no usable value (${hint}).`);
  console.error('Start the service once with `npm start` (it writes that file), or set the variable.');
  process.exit(1);
}

const baseUrl = setting('VA_BASE_URL', process.env.VA_BASE_URL ?? fromFile('Service'), /^https?:\/\//, 'the service URL');
const apiKey = setting(
  'VA_API_KEY',
  process.env.VA_API_KEY ?? fromFile('Demo bot API key'),
  /^vak_/,
  'the key was rotated? rotate it again in the admin pages and pass the new one as VA_API_KEY',
);
const signingSecret = setting(
  'VA_SIGNING_SECRET',
  process.env.VA_SIGNING_SECRET ?? fromFile('Demo bot signing secret'),
  /^whsec_/,
  'the secret was rotated? pass the new one as VA_SIGNING_SECRET',
);
const pull = process.argv.includes('--pull') || process.env.BOT_DELIVERY === 'pull';
if (!pull && process.env.BOT_DELIVERY && process.env.BOT_DELIVERY !== 'webhook') {
  console.error(`BOT_DELIVERY is "${process.env.BOT_DELIVERY}": use webhook (the default) or pull.`);
  process.exit(1);
}
const regression = process.env.BOT_REGRESSION ?? process.argv.find((a) => a.startsWith('--regression='))?.slice('--regression='.length);
if (regression !== undefined && regression !== 'no-refund-handover') {
  console.error(`BOT_REGRESSION is "${regression}": the one regression the bot can plant is no-refund-handover.`);
  process.exit(1);
}
const webhook = fromFile('Demo bot webhook');
const port = Number(process.env.BOT_PORT ?? (webhook?.startsWith('http') ? new URL(webhook).port : '') ?? '') || 3001;

const bot = await startBot({
  baseUrl,
  apiKey,
  signingSecret,
  loginId: process.env.VA_LOGIN_ID,
  delivery: pull ? 'pull' : 'webhook',
  port,
  handoverTeam: process.env.HANDOVER_TEAM,
  aiSdk: process.env.BOT_AI === '1' || process.argv.includes('--ai'),
  streamReplies: process.env.BOT_STREAM === '1' || process.env.BOT_STREAM === 'slow' || process.argv.includes('--stream'),
  slowStream: process.env.BOT_STREAM === 'slow' || process.argv.includes('--slow'),
  regression,
});
console.log(
  `Demo bot ready: ${bot.url ? `webhook ${bot.url}` : 'reading GET /api/v1/events (pull)'}, service ${baseUrl}. Write to it from the admin pages (a chat, "Send as customer").`,
);
bot.done.catch(() => {
  console.error('The bot stopped reading events (see the line above).');
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => bot.close().then(() => process.exit(0)));
