import { publicBase } from '@/lib/widget/public-base';
import { servedOpenApiDocument } from '@/platform/openapi/build-document';
import { publicJson } from '../../v1/_public/json';

export { DELETE, PATCH, POST, PUT } from '../../v1/_public/json';

/**
 * GET /api/widget/openapi.json: the OpenAPI 3.0 document of the chat widget's customer API,
 * beside the API it describes. Public: it describes operations, not data.
 */
export function GET(req: Request): Response {
  // The server's own origin (PUBLIC_URL, else the one the request reached) as the server default.
  return publicJson(servedOpenApiDocument('widget', publicBase(req)), 200, { vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto' });
}
