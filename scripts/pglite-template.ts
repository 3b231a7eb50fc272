// Writes a dump of a migrated embedded database to the path given (used by scripts/test.mjs: each
// test file loads it instead of migrating its own).
import { writeFile } from 'node:fs/promises';
import { dumpPgliteTemplate } from '@/db/client';

const out = process.argv[2];
if (!out) throw new Error('usage: pglite-template.ts <output file>');
const dump = await dumpPgliteTemplate();
await writeFile(out, Buffer.from(await dump.arrayBuffer()));
