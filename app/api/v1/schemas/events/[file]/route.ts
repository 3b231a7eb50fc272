import type { NextRequest } from 'next/server';
import { ApiError } from '@/platform/errors';
import { eventJsonSchema } from '@/platform/openapi/events';
import { publicJson } from '../../../_public/json';

export { DELETE, PATCH, POST, PUT } from '../../../_public/json';

/** GET /api/v1/schemas/events/{event_type}.json, e.g. chat.assigned.json: one event body as JSON Schema. Public. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const schema = file.endsWith('.json') ? eventJsonSchema(file.slice(0, -'.json'.length), req.nextUrl.origin) : null;
  if (!schema) {
    const err = new ApiError(2011, { detail: `no event schema ${file}; see /api/v1/schemas/events.json` });
    return publicJson(JSON.stringify(err.toEnvelope()), err.httpStatus);
  }
  return publicJson(JSON.stringify(schema));
}
