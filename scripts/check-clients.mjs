#!/usr/bin/env node
// Generates API clients from the committed OpenAPI documents with the common generators into a
// temporary directory and compiles them all with `tsc --strict --noEmit`, together with a small
// program using each client: it sets the required `team_id` header of updateChat (and fails to
// leave it out), reads `other_details` of the typed answer, and switches on the `WebhookEvent`
// union. Fails on any generator error or type error.
// - openapi-typescript, @hey-api/openapi-ts and orval 8: pinned devDependencies;
// - orval 7 (still the most installed major; two orval majors cannot both be devDependencies),
//   Kubb (@kubb/cli, plugin-oas, plugin-ts, plugin-client with its fetch client) and
//   swagger-typescript-api (fetch client): installed at check time, at the exact versions of
//   `tools` below, into the temporary directory (needs the npm registry; about a minute).
//   swagger-typescript-api leaves header parameters out of its methods, so its team_id header is
//   sent through the request params and cannot be required; Kubb types other_details values
//   without null (it drops `nullable` on a oneOf member), so its program sends no null.
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
const tools = [
  'orval@7.21.0',
  '@kubb/cli@4.39.3',
  '@kubb/core@4.39.3',
  '@kubb/plugin-oas@4.39.3',
  '@kubb/plugin-ts@4.39.3',
  '@kubb/plugin-client@4.39.3',
  'swagger-typescript-api@13.13.0',
];
const toolBin = (name) => join(out, 'node_modules', '.bin', name);

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

  // The generators that are not devDependencies, into <out>/node_modules (also where the Kubb
  // config and client find their imports; tsc leaves node_modules out of `include`).
  writeFileSync(join(out, 'package.json'), '{"private": true}\n');
  run('npm install (orval 7, Kubb, swagger-typescript-api)', 'npm', [
    'install',
    '--prefix',
    out,
    '--no-save',
    '--no-package-lock',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...tools,
  ]);
  writeFileSync(
    join(out, 'orval7.config.cjs'),
    `module.exports = ${JSON.stringify(
      Object.fromEntries(
        Object.entries(documents).map(([name, doc]) => [
          name,
          { input: { target: doc }, output: { target: join(out, 'orval7', `${name}.ts`), client: 'fetch', headers: true } },
        ]),
      ),
    )};\n`,
  );
  run('orval 7 bot + admin', toolBin('orval'), ['--config', join(out, 'orval7.config.cjs')]);
  writeFileSync(
    join(out, 'kubb.config.mjs'),
    `import { defineConfig } from '@kubb/core';
import { pluginOas } from '@kubb/plugin-oas';
import { pluginTs } from '@kubb/plugin-ts';
import { pluginClient } from '@kubb/plugin-client';

const documents = ${JSON.stringify(documents)};
export default defineConfig(
  Object.entries(documents).map(([name, path]) => ({
    name,
    root: ${JSON.stringify(out)},
    input: { path },
    output: { path: \`./kubb/\${name}\`, clean: true, format: false, lint: false },
    plugins: [pluginOas({ generators: [] }), pluginTs(), pluginClient({ client: 'fetch' })],
  })),
);
`,
  );
  run('kubb bot + admin', toolBin('kubb'), ['generate', '--config', join(out, 'kubb.config.mjs')]);
  for (const [name, doc] of Object.entries(documents)) {
    run(`swagger-typescript-api ${name}`, toolBin('swagger-typescript-api'), [
      'generate',
      '--path',
      doc,
      '--output',
      join(out, 'sta'),
      '--name',
      `${name}.ts`,
      '--silent',
    ]);
  }

  // Each client but swagger-typescript-api's requires the team_id header of updateChat (a client
  // without it cannot call PATCH /chats/{chat_id}); each call reads other_details from the typed
  // answer, and the union narrows on event_type in every generator's types.
  writeFileSync(
    join(out, 'use-clients.ts'),
    `import type { components, operations } from './ots/bot';
import type { UpdateChatData, WebhookEvent as HeyEvent } from './hey/bot/types.gen';
import type { UpdateChatHeaders, WebhookEvent as OrvalEvent } from './orval/bot';
import { updateChat as orval7UpdateChat, type UpdateChatHeaders as Orval7Headers, type WebhookEvent as Orval7Event } from './orval7/bot';
import { updateChat as kubbUpdateChat } from './kubb/bot/clients/updateChat';
import type { UpdateChatHeaderParams as KubbHeaders } from './kubb/bot/types/UpdateChat';
import type { WebhookEvent as KubbEvent } from './kubb/bot/types/WebhookEvent';
import { Api as StaApi, type GetChatEnvelope as StaChatEnvelope, type WebhookEvent as StaEvent } from './sta/bot';

export const otsHeader: operations['updateChat']['parameters']['header'] = { team_id: '672' };
export const heyHeader: UpdateChatData['headers'] = { team_id: '672' };
export const orvalHeader: UpdateChatHeaders = { team_id: '672' };
// @ts-expect-error the header is required
export const otsMissing: operations['updateChat']['parameters']['header'] = {};
// @ts-expect-error the header is required
export const heyMissing: UpdateChatData['headers'] = {};
// @ts-expect-error the header is required
export const orvalMissing: UpdateChatHeaders = {};
// @ts-expect-error the header is required
export const orval7Missing: Orval7Headers = {};
// @ts-expect-error the header is required
export const kubbMissing: KubbHeaders = {};

type Details = Record<string, string | number | boolean | null>;

export async function orval7Call(): Promise<Details | undefined> {
  const answer = await orval7UpdateChat('c1', { other_details: { vip: null } }, { team_id: '672' });
  return answer.status === 200 ? answer.data.response.other_details : undefined;
}

export async function kubbCall(): Promise<Details> {
  // Kubb 4 drops \`nullable\` on a oneOf member: its other_details values leave out null.
  const answer = await kubbUpdateChat('c1', { other_details: { vip: true } }, { team_id: '672' });
  return answer.response.other_details;
}

export async function kubbMissingHeader() {
  // @ts-expect-error the header is required
  await kubbUpdateChat('c1', {});
}

export async function staCall(): Promise<Details> {
  const api = new StaApi({ baseUrl: 'https://example.test' });
  const answer = await api.api.updateChat('c1', { other_details: { vip: null } }, { headers: { team_id: '672' } });
  const body: StaChatEnvelope = answer.data;
  return body.response.other_details;
}

type OtsEvent = components['schemas']['WebhookEvent'];

export function teamOf(e: OtsEvent | HeyEvent | OrvalEvent | Orval7Event | KubbEvent | StaEvent): number {
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
        allowImportingTsExtensions: true,
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
