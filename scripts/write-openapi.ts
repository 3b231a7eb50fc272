/**
 * Writes the committed copies of the OpenAPI documents at the repository root: `openapi.json`
 * (the bot API, as served at /api/v1/openapi.json), `openapi-widget.json` (the chat widget API, as
 * served at /api/widget/openapi.json) and `openapi-admin.json` (the admin API, as
 * served at /api/admin/openapi.json). platform/openapi/build-document.test.ts fails while a copy
 * differs from what the contract generates, so a contract change shows in review as a change here.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, COMMITTED_DOCUMENTS } from '../platform/openapi/build-document';

for (const [file, scope] of Object.entries(COMMITTED_DOCUMENTS)) {
  const target = path.resolve(import.meta.dirname, '..', file);
  writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(scope), null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
