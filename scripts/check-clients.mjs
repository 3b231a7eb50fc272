#!/usr/bin/env node
// Generates API clients from the committed OpenAPI documents with three common generators
// (openapi-typescript, @hey-api/openapi-ts, orval; pinned devDependencies) into a temporary
// directory and compiles them all with `tsc --strict --noEmit`, together with a small program that
// sets the required `team_id` header of updateChat in each client (and fails to leave it out) and
// switches on the `WebhookEvent` union. Fails on any generator error or type error.
// Usage: npm run check:clients [-- --keep]   (--keep leaves the temporary directory for a look)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const out = mkdtempSync(join(tmpdir(), 'va-clients-'));
const keep = process.argv.includes('--keep');
const documents = { bot: join(root, 'openapi.json'), admin: join(root, 'openapi-admin.json') };

function run(label, command, args) {
  const started = Date.now();
  try {
    execFileSync(command, args, { cwd: out, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  } catch (err) {
    process.stderr.write(`${label} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}\n`);
    throw new Error(`${label} failed`);
  }
  console.log(`${label}: ${Date.now() - started} ms`);
}

try {
  for (const [name, doc] of Object.entries(documents)) {
    run(`openapi-typescript ${name}`, bin('openapi-typescript'), [doc, '-o', join(out, 'ots', `${name}.ts`)]);
    run(`@hey-api/openapi-ts ${name}`, bin('openapi-ts'), ['-i', doc, '-o', join(out, 'hey', name), '-s']);
  }
  writeFileSync(
    join(out, 'orval.config.cjs'),
    `module.exports = ${JSON.stringify(
      Object.fromEntries(
        Object.entries(documents).map(([name, doc]) => [
          name,
          { input: { target: doc }, output: { target: join(out, 'orval', `${name}.ts`), client: 'fetch', headers: true } },
        ]),
      ),
    )};\n`,
  );
  run('orval bot + admin', bin('orval'), ['--config', join(out, 'orval.config.cjs'), '--quiet']);

  // Each client requires the team_id header of updateChat (a client without it cannot call
  // PATCH /chats/{chat_id}), and the union narrows on event_type in every generator's types.
  writeFileSync(
    join(out, 'use-clients.ts'),
    `import type { components, operations } from './ots/bot';
import type { UpdateChatData, WebhookEvent as HeyEvent } from './hey/bot/types.gen';
import type { UpdateChatHeaders, WebhookEvent as OrvalEvent } from './orval/bot';

export const otsHeader: operations['updateChat']['parameters']['header'] = { team_id: '672' };
export const heyHeader: UpdateChatData['headers'] = { team_id: '672' };
export const orvalHeader: UpdateChatHeaders = { team_id: '672' };
// @ts-expect-error the header is required
export const otsMissing: operations['updateChat']['parameters']['header'] = {};
// @ts-expect-error the header is required
export const heyMissing: UpdateChatData['headers'] = {};
// @ts-expect-error the header is required
export const orvalMissing: UpdateChatHeaders = {};

type OtsEvent = components['schemas']['WebhookEvent'];

export function teamOf(e: OtsEvent | HeyEvent | OrvalEvent): number {
  switch (e.event_type) {
    case 'chat.unassigned':
      return e.payload.team_id;
    case 'chat.assigned':
      return e.payload.skill === null ? e.team_id : e.team_id;
    default:
      return e.team_id;
  }
}
`,
  );
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        skipLibCheck: true,
        types: [],
      },
      include: ['**/*.ts'],
    }),
  );
  run('tsc --strict --noEmit', bin('tsc'), ['-p', join(out, 'tsconfig.json')]);
  console.log('clients from openapi.json and openapi-admin.json generate and compile');
} catch (err) {
  process.exitCode = 1;
  console.error(err.message);
} finally {
  if (keep) console.log(`left in ${out}`);
  else rmSync(out, { recursive: true, force: true });
}
