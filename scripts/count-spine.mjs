// Counts what issue 43 tracks: lib/ folders that import each other both ways, the places that
// publish a live change, and the places that write Server-Sent Events. Run from the repository's root: node scripts/count-spine.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
const skip = new Set(['node_modules', '.next', '.git', 'test', 'e2e', 'bench', 'db']);
function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}
const files = ['lib', 'platform', 'app', 'inngest', 'components']
  .flatMap((dir) => walk(join(root, dir)))
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

// lib/<folder> -> set of lib/<folder> it imports (the top folder under lib/).
const edges = new Map();
for (const { path, text } of files) {
  if (!path.startsWith('lib/')) continue;
  const from = path.split('/')[1];
  for (const m of text.matchAll(/from '@\/lib\/([a-z0-9-]+)/g)) {
    if (m[1] === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const to = edges.get(from);
    to.set(m[1], (to.get(m[1]) ?? 0) + 1);
  }
}
const twoWay = [];
for (const [a, tos] of edges)
  for (const [b, n] of tos) if (a < b && edges.get(b)?.has(a)) twoWay.push(`${a} <-> ${b} (${n}/${edges.get(b).get(a)})`);

// Publishers: files that hand a change to the real-time layer themselves, i.e. call its
// `publish(` or one of the chat-change publishers, outside the module that defines them.
const publishCall = /(?<![\w.])(publish|publishChatChanges|publishChunk|publishChatChange)\(/;
const publishers = files
  .filter(({ path }) => !path.startsWith('platform/realtime/') && !path.startsWith('scripts/'))
  .filter(({ text }) =>
    text
      .split('\n')
      .some((line) => publishCall.test(line) && !/^\s*(export )?(async )?function /.test(line) && !/^\s*(\*|\/\/)/.test(line)),
  )
  .map(({ path }) => path);

// SSE writers: server code that formats an SSE frame itself (a `retry: ` line or a `data: ${…}` frame).
const writers = files
  .filter(({ path }) => /^(lib|platform|app)\//.test(path))
  .filter(({ text }) => /new ReadableStream/.test(text) && (/['`]retry: \d/.test(text) || /data: \$\{/.test(text)))
  .map(({ path }) => path);

console.log(`two-way imports between lib/ folders: ${twoWay.length}`);
for (const line of twoWay) console.log(`  ${line}`);
console.log(`publishers of live changes: ${publishers.length}`);
for (const p of publishers) console.log(`  ${p}`);
console.log(`SSE writers: ${writers.length}`);
for (const p of writers) console.log(`  ${p}`);
