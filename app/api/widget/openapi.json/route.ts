import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import { publicJson } from '../../v1/_public/json';

export { DELETE, PATCH, POST, PUT } from '../../v1/_public/json';

// Built once per server process: the document depends only on the contract.
let document: string | undefined;

/**
 * GET /api/widget/openapi.json: the OpenAPI 3.0 document of the chat widget's customer API,
 * beside the API it describes. Public: it describes operations, not data.
 */
export function GET(): Response {
  document ??= JSON.stringify(buildOpenApiDocument('widget'));
  return publicJson(document);
}
