// Rewrites what the docs copy from the contract: the code catalogue in docs/reference/status-codes.md
// (between the codes markers) from contracts/codes.ts, and the filled regions of docs/guide/*.md (the code
// catalogue and the event examples, app/docs/_guide/fill.ts), so that the raw Markdown shows them.
import fs from 'node:fs';
import path from 'node:path';
import { fillGuide } from '@/app/docs/_guide/fill';
import { codesMarkdownTable } from './codes-table';

const START = '<!-- codes:start -->';
const END = '<!-- codes:end -->';
const CODES_PAGE = path.join('docs', 'reference', 'status-codes.md');
const readme = fs.readFileSync(CODES_PAGE, 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error(`${CODES_PAGE} lacks the codes markers`);
fs.writeFileSync(CODES_PAGE, `${readme.slice(0, a + START.length)}\n${codesMarkdownTable()}\n${readme.slice(b)}`);
console.log(`${CODES_PAGE} code catalogue updated`);

const GUIDE = path.join('docs', 'guide');
for (const file of fs.readdirSync(GUIDE).filter((f) => f.endsWith('.md'))) {
  const at = path.join(GUIDE, file);
  const before = fs.readFileSync(at, 'utf8');
  const after = fillGuide(before);
  if (after !== before) {
    fs.writeFileSync(at, after);
    console.log(`${at} updated`);
  }
}
