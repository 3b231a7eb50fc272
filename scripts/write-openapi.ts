/**
 * Writes the committed copy of the OpenAPI document, `openapi.json` at the repository root.
 * lib/openapi/build-document.test.ts fails while the copy differs from what the contract generates,
 * so a contract change shows in review as a change of this file.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../lib/openapi/build-document';

const target = path.resolve(import.meta.dirname, '..', 'openapi.json');
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
