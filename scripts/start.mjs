#!/usr/bin/env node
// `npm start`: builds when the build is missing or older than the sources, then runs `next start`.
// Without DATABASE_URL it runs on the embedded database in ./.data and, being a local demo,
// allows webhooks to private addresses (WEBHOOK_ALLOW_PRIVATE=true) unless told otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'lib', 'contracts', 'db', 'inngest', 'instrumentation.ts', 'next.config.ts', 'package-lock.json'];

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
  console.log(built === 0 ? 'No build found: building (about a minute)...' : 'Sources changed since the last build: rebuilding...');
  const res = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const env = { ...process.env };
if (!env.DATABASE_URL && env.WEBHOOK_ALLOW_PRIVATE === undefined) env.WEBHOOK_ALLOW_PRIVATE = 'true';
const port = env.PORT ?? '3000';
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
