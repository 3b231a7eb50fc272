import { publicBase } from '@/lib/widget/public-base';
import { servedOpenApiDocument } from '@/platform/openapi/build-document';
import { publicJson } from '../_public/json';

export { DELETE, PATCH, POST, PUT } from '../_public/json';

/** GET /api/v1/openapi.json: the OpenAPI 3.0 document of the bot API (the admin API's is at /api/admin/openapi.json). Public. */
export function GET(req: Request): Response {
  // The server's own origin (PUBLIC_URL, else the one the request reached) as the server default.
  return publicJson(servedOpenApiDocument('bot', publicBase(req)), 200, { vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto' });
}
