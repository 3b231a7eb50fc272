#!/usr/bin/env node
// Runs every *.test.ts outside e2e/ with Node's test runner (through tsx for TypeScript).
// Without DATABASE_URL the tests use in-memory PGlite; with it, a fresh database per test file.
// The migrations run once: on PostgreSQL into a template database that each test file copies, on
// PGlite into a dump that each test file loads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

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
const baseEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  DELIVERY_ENGINE: 'off',
  // Every answer body is checked against the contract's response schemas.
  VALIDATE_RESPONSES: 'true',
  // Suites sign in many times from one address; the budget itself has its own test.
  ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
  // Suites read back the successful calls they make; the sampling of successes has its own test.
  BOT_REQUEST_LOG_SAMPLE_RATE: '1',
  ...process.env,
};

// TEST_REPORTER: another reporter than spec, Node's name for one or a file's path (drill:ops's
// test/support/drill-reporter.mjs).
const reporter = process.env.TEST_REPORTER || 'spec';
const reporterArg = existsSync(reporter) ? path.resolve(reporter) : reporter;

// PostgreSQL: migrate once; every test file then copies this template (CREATE DATABASE ... TEMPLATE)
// instead of running the migrations again (~2 s each, against ~0.25 s for a copy).
const template = await makeTemplate();
// On PGlite, V8's baseline WebAssembly compiler only: each test file's process starts its own
// PGlite, and optimising the database's WebAssembly costs about 1.2 s of CPU per process, more than
// a test file's queries win back (the chats, widget and API suites on 2 cores: 138 s of wall time,
// 217 s of CPU with optimising; 110 s, 162 s without). The test runner passes the flag to each file's
// process, and test/support/child-process.ts to the servers the tests start.
const nodeFlags = baseEnv.DATABASE_URL ? [] : ['--liftoff-only'];

// The test files run bundled (see bundleTests); TEST_LOADER=tsx runs the sources through tsx instead.
const bundled = process.env.TEST_LOADER === 'tsx' ? undefined : await bundleTests(files);

let status = 1;
try {
  const loader = bundled ? ['--enable-source-maps'] : ['--import', 'tsx'];
  const result = spawnSync(
    process.execPath,
    [...nodeFlags, ...loader, '--test', '--test-concurrency=2', `--test-reporter=${reporterArg}`, ...(bundled?.files ?? files)],
    {
      stdio: 'inherit',
      env: { ...baseEnv, ...template?.env },
    },
  );
  status = result.status ?? 1;
} finally {
  await template?.drop();
  bundled?.drop();
}
process.exit(status);

/**
 * The test files compiled into ES modules with esbuild, our code bundled (shared parts in chunks)
 * and the packages left to Node, by their resolved path. Under tsx every module of the app a test
 * file imports went through tsx's loader, which Node 20 runs on a thread of its own: about 40 % of
 * the suites' CPU (the chats and widget folders on PGlite: 142 s of CPU through tsx, 85 s bundled;
 * the bundle of all 150 files takes about 6 s). `import.meta.url`, `dirname` and `filename` keep
 * their source file's values, so the paths tests build from them do not move; source maps keep
 * stack traces on the sources. The servers and processes tests start still run under tsx.
 */
async function bundleTests(entries) {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'va-test-build-'));
  const root = process.cwd();
  const resolving = Symbol('resolving');
  const keepSources = {
    name: 'keep-sources',
    setup(build) {
      // Bare specifiers: node's own modules and packages stay outside the bundle (by absolute path:
      // Node's ESM loader wants file extensions tsx and esbuild add); `@/` and other paths of ours go in.
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@/') || args.pluginData === resolving) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: resolving,
        });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external) return { path: args.path, external: true };
        return found.path.includes(`${path.sep}node_modules${path.sep}`) ? { path: found.path, external: true } : undefined;
      });
      build.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = (await readFile(args.path, 'utf8'))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
        const loader = path.extname(args.path).slice(1);
        return { contents: source, loader: loader === 'mjs' ? 'js' : loader };
      });
    },
  };
  try {
    await esbuild.build({
      entryPoints: entries,
      outbase: root,
      outdir,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      tsconfig: path.join(root, 'tsconfig.json'),
      plugins: [keepSources],
      logLevel: 'warning',
    });
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  return {
    files: entries.map((file) => path.join(outdir, path.relative(root, file).replace(/\.tsx?$/, '.mjs'))),
    drop: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

async function makeTemplate() {
  const url = baseEnv.DATABASE_URL;
  if (!url) return makePgliteTemplate();
  const { default: postgres } = await import('postgres');
  const name = `va_test_template_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const tplUrl = new URL(url);
  tplUrl.pathname = `/${name}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'db/migrate-cli.ts'], {
    stdio: 'inherit',
    env: { ...baseEnv, DATABASE_URL: tplUrl.toString() },
  });
  if (run.status !== 0) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    throw new Error('could not migrate the template database');
  }
  return {
    env: { TEST_DB_TEMPLATE: name },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The embedded database: a dump of a database migrated once, which each test file loads. */
function makePgliteTemplate() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'va-test-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/pglite-template.ts', file], { stdio: 'inherit', env: baseEnv });
  if (run.status !== 0) throw new Error('could not migrate the template database');
  return { env: { TEST_PGLITE_TEMPLATE: file }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}
