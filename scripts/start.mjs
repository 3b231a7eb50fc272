#!/usr/bin/env node
// `npm start`: builds when the build is missing or older than the sources, then serves the build on
// one node:http server (see serve() below); `npm start -- --next` runs `next start` instead.
// Without DATABASE_URL it runs on the embedded database in ./.data and, being a local demo,
// allows webhooks to private addresses (WEBHOOK_ALLOW_PRIVATE=true) unless told otherwise.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

// Everything the build reads: a change to any of them (a component, env.ts, a guide page) rebuilds.
const SOURCES = [
  'app',
  'components',
  'lib',
  'platform',
  'contracts',
  'db',
  'inngest',
  'docs/guide',
  'public',
  'env.ts',
  'proxy.ts',
  'instrumentation.ts',
  'instrumentation-node.ts',
  'next.config.ts',
  'tsconfig.json',
  'package-lock.json',
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const buildId = path.join('.next', 'BUILD_ID');
const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
if (built === 0 || SOURCES.some((s) => newestMtime(s) > built)) {
  console.log(
    built === 0
      ? 'No build found: building (a few minutes on 2 cores, longer when other work shares them)...'
      : 'Sources changed since the last build: rebuilding...',
  );
  // Next prints little while it compiles: a line every 20 s says the build is still going.
  const started = Date.now();
  const ticker = setInterval(() => console.log(`  ...still building, ${Math.round((Date.now() - started) / 1000)} s so far`), 20_000);
  // As `npm run build`: the widget's browser code first (public/widget/chat.js), then Next.
  for (const args of [
    ['--import', 'tsx', 'scripts/build-widget.ts'],
    ['node_modules/next/dist/bin/next', 'build'],
  ]) {
    const status = await new Promise((resolve) => spawn(process.execPath, args, { stdio: 'inherit' }).on('exit', (code) => resolve(code)));
    if (status !== 0) {
      clearInterval(ticker);
      process.exit(status ?? 1);
    }
  }
  clearInterval(ticker);
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}

if (!process.env.DATABASE_URL && process.env.WEBHOOK_ALLOW_PRIVATE === undefined) process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
const port = Number(process.env.PORT ?? 3000);
const hostArg = process.argv.findIndex((a) => a === '-H' || a === '--hostname');
const hostname = hostArg === -1 ? undefined : process.argv[hostArg + 1];

if (process.argv.includes('--next')) {
  // Next's own server only, as on platforms that run `next start`: for comparing the two entries.
  // Idle connections kept 65 s, as serve() keeps them: at Node's default (5 s, closed at 6) a client
  // that does not read the Keep-Alive hint and sends on a connection idle about that long meets a
  // reset (seen: Playwright's request client, 1 in 24 tries at 6 s).
  const args = [
    'node_modules/next/dist/bin/next',
    'start',
    '-p',
    String(port),
    '--keepAliveTimeout',
    '65000',
    ...(hostname ? ['-H', hostname] : []),
  ];
  // With this process's node flags (package.json's start script gives them).
  const child = spawn(process.execPath, [...process.execArgv, ...args], { stdio: 'inherit', env: process.env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  // A server that cannot start exits with one line, never stays up without serving (Next's own
  // handler of uncaught errors logs them and keeps the process running).
  await serve().catch((err) => {
    console.error(`Could not start: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}

/**
 * One port, one process: the bot API's requests go straight to its pipeline (the same contract,
 * validation and route implementations as the Next route, taken from this build by
 * instrumentation.ts), everything else to Next's request handler.
 */
async function serve() {
  process.env.NODE_ENV = 'production';
  // Registered before Next runs the instrumentation hook, whose shutdown (platform/ops/shutdown.ts)
  // takes over the listeners already there and calls them once delivery has drained: the server
  // keeps answering (readiness 503, metrics, calls in flight) until then. Registered after it, this
  // listener closed the server and exited at once, cutting the drain short.
  let server;
  let closing = false;
  const stop = () => {
    if (!server) process.exit(0);
    closing = true;
    // close() ends the idle connections and waits for the others, which node:http keeps alive as
    // long as their client keeps them busy (a load balancer, a scraper every second): each answer
    // from now on closes its connection, and requests still unanswered after 10 s are not waited for.
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, stop);
  // instrumentation.ts hands the API entry over (platform/http/node-entry.ts emits it) once the database
  // is open, which may be after prepare() resolves (migrations on a loaded machine take minutes);
  // it exits itself when the start fails. Listened for before Next loads, so it cannot be missed.
  const entriesReady = new Promise((resolve, reject) => {
    process.once('va-node-entries-ready', resolve);
    setTimeout(
      () => reject(new Error('the build did not expose the API entry (instrumentation.ts): rebuild with npm run build')),
      600_000,
    ).unref();
  });
  // The build's own copy of the configuration, as Next's standalone server passes it: without it
  // Next loads next.config.ts again at start, and transpiling it maps the SWC compiler's native
  // module into the process for its whole life (measured at rest on PostgreSQL: 149 MiB resident
  // with it, 120 MiB without; the file only holds values the build already applied). Should Next
  // stop reading this variable, it falls back to next.config.ts: more memory, nothing else.
  const serverFiles = path.join('.next', 'required-server-files.json');
  if (!process.env.__NEXT_PRIVATE_STANDALONE_CONFIG && existsSync(serverFiles)) {
    process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(serverFiles, 'utf8')).config);
  }
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const entries = await entriesReady;
  // The same header and request time limits on every path (entries.serverOptions, from
  // HEADERS_TIMEOUT_MS and BODY_TIMEOUT_MS); what node:http refuses itself is answered by clientError.
  server = http.createServer(entries.serverOptions, (req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    if (!entries.serve(req, res)) handle(req, res);
  });
  server.on('clientError', entries.clientError);
  // Longer than a load balancer's idle timeout, so it never reuses a connection we just closed.
  server.keepAliveTimeout = 65_000;
  server.listen(port, hostname, () => console.log(`Ready on http://${hostname ?? 'localhost'}:${port}`));
}
