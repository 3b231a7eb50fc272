import { CODES, type Code } from '@/contracts/codes';
import { UNDERSCORE_HEADER_HINT } from '@/platform/errors';

/**
 * What the documents show beside the schemas' own examples (contracts/): parameter values, and
 * each error code's envelope as a route answers it.
 */

/** Example values of parameters, by name. */
export const PARAMETER_EXAMPLES: Record<string, unknown> = {
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  team_id: 672,
  'Idempotency-Key': '5d7f8a2e-1c3b-4e6d-9f0a-b2c4d6e8f0a1',
  // By `in:name` where a name means different things in different places (`id` of a path is a record's).
  'query:id': '9b2f6c1e-4d3a-4e8b-a1c5-7f0e2d4b6a89',
};

/** What a route looks like to the error examples: which fields it takes, which methods its path allows. */
export type ErrorExampleContext = {
  /** A body field and the message zod gives when it is wrong (Required, or a type mismatch). */
  bodyField?: { name: string; message: string };
  queryField?: string;
  pathField?: string;
  allow: string[];
  path: string;
};

type Detail = { detail?: string; errors?: { field: string; message: string }[]; response?: Record<string, unknown> };

const field = (f: string, message: string): Detail => ({ detail: `${f} (${message})`, errors: [{ field: f, message }] });
/** A cursor is the body's `cursor` where events are acknowledged, else the query's `after`. */
const cursorField = (ctx: ErrorExampleContext) => (ctx.bodyField?.name === 'cursor' ? 'cursor' : 'query.after');
const OLDEST_CURSOR = 'ev0000002a00000000000002b10000000000001a07';
const CURSOR_EXAMPLE_ACKED = 'ev0000002a00000000000002c40000000000001b3e';

/**
 * How each error code's envelope reads: its detail (the description gets `: detail` appended, as
 * ApiError does) and field errors, the same on every route or made for the route.
 */
const DETAILS: Partial<Record<Code, string | Detail | ((ctx: ErrorExampleContext) => Detail)>> = {
  2000: (ctx) => (ctx.bodyField ? field(ctx.bodyField.name, ctx.bodyField.message) : field('(body)', 'Expected object, received string')),
  2001: (ctx) =>
    ctx.queryField === 'page_size'
      ? field('query.page_size', 'Number must be less than or equal to 100')
      : field(`query.${ctx.queryField ?? 'cursor'}`, 'Invalid input'),
  2002: {
    detail: `access_token header is required; ${UNDERSCORE_HEADER_HINT}`,
    errors: [{ field: 'header.access_token', message: 'Required' }],
  },
  2004: 'call /authorize for a new token',
  2006: 'Unexpected end of JSON input',
  2008: 'at most 262144 bytes are accepted',
  2009: 'got text/plain',
  2010: 'team 999',
  2011: (ctx) => ({ detail: `GET ${ctx.path}/unknown` }),
  2012: 'at most 6000 requests per minute; retry in 12 s',
  2013: { errors: [{ field: 'header.idempotency-key', message: 'used before with another request' }] },
  2014: (ctx) => field(`path.${ctx.pathField ?? 'id'}`, 'String must contain at most 100 character(s)'),
  2020: field('quick_replies', 'quick replies are offered only on the livechat channel (this chat is sms)'),
  2032: { detail: 'asset 3101 is on sms, not livechat', errors: [{ field: 'asset_id', message: 'asset is on sms' }] },
  2033: { detail: '"va-unknown"', errors: [{ field: 'assignee', message: 'no such login ID' }] },
  2034: (ctx) => ({
    detail: '"spanish" in team 672',
    errors: [{ field: ctx.path.includes('/internal/') ? 'transfer.skill_name' : 'skill', message: 'no such skill in the team' }],
  }),
  2035: { detail: 'asset 3101 (Old website chat) was disabled', errors: [{ field: 'asset_id', message: 'the asset is disabled' }] },
  2040: 'only announcements can be added to a closed chat',
  2041: 'the chat is closed',
  2060: (ctx) => field(cursorField(ctx), 'not a cursor this service gave'),
  2061: (ctx) => field(cursorField(ctx), 'no such cursor for this virtual agent'),
  2051: 'this instance holds 18000 live streams (EVENT_STREAMS_PER_INSTANCE: 18000)',
  2062: '5 are open',
  2063: (ctx) => ({
    detail: `read on from ${OLDEST_CURSOR}`,
    errors: [{ field: cursorField(ctx), message: 'older than what retention kept' }],
    response: { oldest_cursor: OLDEST_CURSOR },
  }),
  2064: (ctx) => ({
    detail: `read on without a cursor, or from ${CURSOR_EXAMPLE_ACKED}`,
    errors: [{ field: cursorField(ctx), message: 'no event of this virtual agent is at this position' }],
    response: { acknowledged_cursor: CURSOR_EXAMPLE_ACKED },
  }),
  2099: (ctx) => {
    const wrong = ['PUT', 'DELETE', 'POST', 'PATCH', 'GET'].find((m) => !ctx.allow.includes(m)) ?? 'PUT';
    return { detail: `${wrong} is not supported here; use ${ctx.allow.join(', ')}` };
  },
  3003: 'cross-site request refused (Sec-Fetch-Site: cross-site)',
  3004: { detail: 'name "Billing bot"', errors: [{ field: 'name', message: 'already in use' }] },
  3005: { detail: 'name', errors: [{ field: 'name', message: 'cannot be changed after creation' }] },
  3006: (ctx) => ({ detail: `no ${resourceOf(ctx.path)} 42` }),
  3007: {
    detail: '10.0.0.7 is a private, loopback, link-local or reserved address',
    errors: [{ field: 'webhook_url', message: '10.0.0.7 is a private, loopback, link-local or reserved address' }],
  },
  3008: (ctx) => ({
    detail: ctx.path.includes('/events/') ? 'event 42 is still pending delivery' : 'routing rule "Billing" sends chats to skill "billing"',
  }),
};

/** `/api/admin/virtual-agents/:id` → `virtual agent`. */
function resourceOf(path: string): string {
  const segment = path.replace(/^\/api\/(admin|v1)\//, '').split('/')[0] ?? 'record';
  return segment.replace(/s$/, '').replace(/-/g, ' ');
}

/** The error envelope a route answers with for `code`. */
export function errorEnvelopeExample(code: Code, ctx: ErrorExampleContext) {
  const given = DETAILS[code];
  const found: Detail = typeof given === 'function' ? given(ctx) : typeof given === 'string' ? { detail: given } : (given ?? {});
  const base = CODES[code].description;
  return {
    status_code: code,
    description: found.detail ? `${base}: ${found.detail}` : base,
    response: found.errors ? { errors: found.errors, ...found.response } : null,
  };
}
