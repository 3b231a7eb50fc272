#!/usr/bin/env node
// Runs every *.test.ts outside e2e/ with Node's test runner (through tsx for TypeScript).
// Without DATABASE_URL the tests use in-memory PGlite; with it, a fresh database per test file.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', '.next', '.git', 'e2e', '.data', 'test-results']);
function find(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) find(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = find('.')
  .filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_ENGINE: 'off',
    // Suites sign in many times from one address; the budget itself has its own test.
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    ...process.env,
  },
});
process.exit(result.status ?? 1);
