import { EVENT_EXAMPLES, EVENT_NAMES, eventTypeOf } from './events';
import { eventNote } from './overview';
import type { OpenApiDocument, PathItemObject } from './types';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Standard Webhooks signature headers on every request to the VA. */
const WEBHOOK_HEADERS = {
  'webhook-id': {
    description: "The event's `transaction_id`: the same on every retry of the event",
    example: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  },
  'webhook-timestamp': { description: 'Unix time (seconds) of this attempt; refuse values far from your clock', example: '1772442847' },
  'webhook-signature': {
    description:
      "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` keyed with the VA's `whsec_` secret (Standard Webhooks); while a secret rotation overlaps, two of them separated by a space, and one match is enough",
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};

/** OpenAPI 3.0 has no `webhooks`: the requests sent to the VA are described as `x-webhooks` (Redoc's and Redocly's extension). */
export function webhooks(): Record<string, PathItemObject> {
  const out: Record<string, PathItemObject> = {};
  for (const name of EVENT_NAMES) {
    const type = eventTypeOf(name);
    out[type] = {
      post: {
        operationId: `${type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Event`,
        summary: `Event ${type}`,
        description: `${eventNote(name)} Sent to the VA's webhook URL when the VA subscribed to \`${type}\`. Verify the signature headers before trusting the body.`,
        tags: ['webhooks'],
        security: [],
        parameters: Object.keys(WEBHOOK_HEADERS).map((h) => ({ $ref: `#/components/parameters/${h}` })),
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef(name), example: EVENT_EXAMPLES[name] } } },
        responses: {
          200: { description: 'Received. Answer within 5 s; the body of the answer is ignored.' },
          default: {
            description:
              'Any other status, a redirect, no answer within 5 s or a network error: the attempt failed and is retried (1 s, 5 s, 30 s, 2 min, 10 min, 30 min, up to 20 % jitter).',
          },
        },
      },
    };
  }
  return out;
}

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

/** The components that do not come from zod: security schemes, response headers, webhook headers. */
export const FIXED_COMPONENTS: Omit<OpenApiDocument['components'], 'schemas'> = {
  securitySchemes: {
    accessToken: {
      type: 'apiKey',
      in: 'header',
      name: 'access_token',
      description: 'The token from `POST /api/v1/authorize`. Missing: 2002 (400); unknown: 2003 (400); expired: 2004 (401).',
    },
    adminSession: {
      type: 'apiKey',
      in: 'cookie',
      name: 'va_session',
      description: 'The HttpOnly session cookie set by `POST /api/admin/login`. Missing or expired: 3001 (401).',
    },
    widgetCustomer: {
      type: 'http',
      scheme: 'bearer',
      description:
        "The customer credential from `POST /api/widget/apps/{app_id}/visitors`, as `Authorization: Bearer <token>`. It reaches only that customer's chats of that app. Missing, unknown or expired: 2070 (401). Cookies are never read.",
    },
  },
  headers: {
    trxid: {
      description: "Trace ID of this request, also in the service's logs: quote it to support",
      schema: { ...str, format: 'uuid' },
    },
    'Rate-Limit-Limit': {
      description:
        "Requests allowed per minute for the caller's account (per client address on /authorize). Absent when the request was refused before it was counted (unauthenticated, wrong method, refused body)",
      schema: int,
    },
    'Rate-Limit-Remaining': { description: 'Requests left in the current one-minute window', schema: int },
    'Rate-Limit-Reset': { description: 'Seconds until the window starts again', schema: int },
    'Retry-After': { description: 'Seconds to wait before retrying', schema: int },
    Allow: { description: 'The methods this path supports', schema: str, example: 'GET, PATCH' },
    access_token: { description: 'The new access token (the same as `response.access_token`)', schema: str },
    'Idempotent-Replayed': {
      description:
        'Present, and `true`, when this answer is the stored answer of an earlier request with the same `Idempotency-Key`: nothing was done again',
      schema: { ...str, enum: ['true'] },
    },
  },
  parameters: Object.fromEntries(
    Object.entries(WEBHOOK_HEADERS).map(([name, h]) => [
      name,
      { name, in: 'header', required: true, description: h.description, schema: str, example: h.example },
    ]),
  ),
};
