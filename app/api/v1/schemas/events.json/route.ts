import type { NextRequest } from 'next/server';
import { eventJsonSchemas } from '@/platform/openapi/events';
import { publicJson } from '../../_public/json';

export { DELETE, PATCH, POST, PUT } from '../../_public/json';

/** GET /api/v1/schemas/events.json: every webhook event body as JSON Schema (draft 2020-12). Public. */
export function GET(req: NextRequest): Response {
  return publicJson(JSON.stringify(eventJsonSchemas(req.nextUrl.origin)));
}
