// Rewrites the code catalogue in README.md (between the codes markers) from contracts/codes.ts.
import fs from 'node:fs';
import { codesMarkdownTable } from './codes-table';

const START = '<!-- codes:start -->';
const END = '<!-- codes:end -->';
const readme = fs.readFileSync('README.md', 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error('README.md lacks the codes markers');
fs.writeFileSync('README.md', `${readme.slice(0, a + START.length)}\n${codesMarkdownTable()}\n${readme.slice(b)}`);
console.log('README.md code catalogue updated');
