import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import { publicJson } from '../_public/json';

export { DELETE, PATCH, POST, PUT } from '../_public/json';

// Built once per server process: the document depends only on the contract.
let document: string | undefined;

/** GET /api/v1/openapi.json: the OpenAPI 3.0 document of the bot API (the admin API's is at /api/admin/openapi.json). Public. */
export function GET(): Response {
  document ??= JSON.stringify(buildOpenApiDocument('bot'));
  return publicJson(document);
}
