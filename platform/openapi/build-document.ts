import { type AppRoute, type AppRouter, extractZodObjectShape, isAppRoute, isAppRouteOtherResponse, isZodObject } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { z } from 'zod';
import { ADMIN_API_PREFIX, adminContract } from '@/contracts/admin';
import { BOT_API_PREFIX, botContract } from '@/contracts/bot';
import { POST_MESSAGE_EXAMPLES } from '@/contracts/bot/message-examples';
import { CODES, type Code } from '@/contracts/codes';
import { errorCodesOf } from '@/contracts/errors';
import { WIDGET_API_PREFIX, widgetContract } from '@/contracts/widget';
import { takesBodyStream } from '@/platform/http/route-table';
import { eventComponents, webhookEventUnion } from './events';
import { type ErrorExampleContext, errorEnvelopeExample, PARAMETER_EXAMPLES } from './examples';
import { infoDescription, statusCodeCatalogue } from './overview';
import { sampleFromSchema } from './sample';
import { fixSchema, metaOf, nameOf, toOpenApiSchema } from './schema-tools';
import type { OpenApiDocument, OperationObject, ParameterObject, PathItemObject, ResponseObject, SchemaObject } from './types';
import { FIXED_COMPONENTS, webhooks } from './webhooks';

/**
 * The APIs a document can cover, by group, and how each group's operations are named: `prefix` and
 * the route's key (`admin` + `listUsers`: `adminListUsers`); secured: `scheme`, except the routes
 * named `open`; and whether their answers carry the Rate-Limit-* headers. Bot operations are tagged
 * by their router (`chats`), the others by their group. Adding an API is one entry here.
 */
const GROUPS = {
  bot: { api: botContract, base: BOT_API_PREFIX, prefix: '', scheme: 'accessToken', open: ['authorize'], rateLimited: true },
  admin: { api: adminContract, base: ADMIN_API_PREFIX, prefix: 'admin', scheme: 'adminSession', open: ['login'], rateLimited: false },
  widget: {
    api: widgetContract,
    base: WIDGET_API_PREFIX,
    prefix: 'widget',
    scheme: 'widgetCustomer',
    open: ['getApp', 'createVisitor'],
    rateLimited: true,
  },
};
type GroupName = keyof typeof GROUPS;

/**
 * Which document: `bot` (served at /api/v1/openapi.json and committed as openapi.json: what a bot
 * client is generated from), `admin` (/api/admin/openapi.json, openapi-admin.json), `widget` (the
 * chat widget's customer API, /api/widget/openapi.json, openapi-widget.json) or `all` (the bot and
 * admin APIs in one document, which the contract tests walk with a VA token and an admin session).
 */
export type DocumentScope = 'bot' | 'admin' | 'widget' | 'all';
const DOCUMENTS: Record<DocumentScope, { groups: GroupName[]; title: string }> = {
  bot: { groups: ['bot'], title: 'VA Chat API' },
  admin: { groups: ['admin'], title: 'VA Chat Admin API' },
  widget: { groups: ['widget'], title: 'VA Chat Widget API' },
  all: { groups: ['bot', 'admin'], title: 'VA Chat API' },
};
/** The documents committed at the repository root (`npm run openapi:write`), by file name. */
export const COMMITTED_DOCUMENTS: Record<string, DocumentScope> = {
  'openapi.json': 'bot',
  'openapi-admin.json': 'admin',
  'openapi-widget.json': 'widget',
};

/** The tags in the order the documents list them, with their descriptions. */
const TAGS: Record<string, string> = {
  auth: 'Exchange the API key for an access token.',
  teams: "The account's teams and their skills: the targets of transfers and the `team_id` header.",
  chats: 'Create, list, read and update chats: tags, status, assignee, alias and other details.',
  messages: "A chat's transcript; replies, announcements and inbound messages.",
  transfer: "Hand a chat over to a team's queue or a skill (private beta in the original product).",
  approvals:
    'Ask a person to approve or reject an action while the VA keeps the chat; the answer comes as `approval.decided` or `approval.expired`.',
  events:
    "Pull the VA's events instead of (or besides) receiving webhooks: one ordered cursor over all its chats, by long-poll or a Server-Sent Events stream, with acknowledgement.",
  me: 'Who the VA is (login ID, team, subscriptions) and the channel assets it can start chats on.',
  admin:
    "The administrators' API behind the admin pages: accounts, teams, users, skills, Virtual Agents, assets, routing rules, chats and event deliveries.",
  widget: "The chat widget's customer API: a customer of a livechat asset starts a chat, writes and follows it live.",
  webhooks: "Requests the service sends to the VA's webhook (see **Webhooks** above). Reply HTTP 200 within 5 s.",
};

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  chat_id: "The chat's `chat_id`",
};

/** Statuses answered before the rate limiter counts the request (2099, 2008, 2009). */
const UNCOUNTED_STATUSES = new Set([405, 413, 415]);

/** Operations whose body takes several shapes show one named example per shape instead of one `example`. */
const NAMED_BODY_EXAMPLES: Record<string, Record<string, { summary: string; value: unknown }>> = {
  postMessage: Object.fromEntries(
    Object.entries(POST_MESSAGE_EXAMPLES).map(([name, e]) => [name, { summary: `${e.summary} (a ${e.channel} chat)`, value: e.value }]),
  ),
};

/** The body of POST /chats/{chat_id}/messages/stream, as the AI SDK sends it. */
const REPLY_STREAM_EXAMPLE = [
  { type: 'start' },
  { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'lookupOrder', input: { order: '1042' } },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Your order 1042 ' },
  { type: 'text-delta', id: 't1', delta: 'left our warehouse this morning.' },
  { type: 'text-end', id: 't1' },
  { type: 'finish' },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');

/** The server variable's default in the committed documents; a running server serves its own origin. */
const DEFAULT_ORIGIN = 'http://localhost:3000';

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const schemaRef = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);
const fieldNames = (schema: unknown) => (isZodObject(schema) ? Object.keys(extractZodObjectShape(schema)) : []);
const headerNames = (route: AppRoute) => fieldNames(route.headers);

type RouteInfo = { group: GroupName; routerKey: string; routeKey: string; route: AppRoute; operationId: string };

/** Every route of `router`, keyed by the id @ts-rest/open-api gives it with 'concatenated-path' (`bot.chats.getChat`). */
function routeIndex(router: AppRouter, trail: string[] = [], out = new Map<string, RouteInfo>()): Map<string, RouteInfo> {
  for (const [key, value] of Object.entries(router)) {
    if (!isAppRoute(value)) routeIndex(value as AppRouter, [...trail, key], out);
    else {
      const [group, routerKey = key] = trail as [GroupName, string?];
      const { prefix } = GROUPS[group];
      out.set([...trail, key].join('.'), {
        group,
        routerKey,
        routeKey: key,
        route: value,
        operationId: prefix ? prefix + pascal(key) : key,
      });
    }
  }
  return out;
}

const ROUTES = routeIndex(Object.fromEntries(Object.entries(GROUPS).map(([name, group]) => [name, group.api])));

/** Every documented route of `scope` with its operationId: what the tests check the document against. */
export function documentedRoutes(scope: DocumentScope = 'all'): RouteInfo[] {
  return [...ROUTES.values()].filter((info) => DOCUMENTS[scope].groups.includes(info.group));
}

/** The status codes of a route's error responses (`errors(...)` in contracts/errors.ts), in numeric order. */
export function codesOfRoute(route: AppRoute): Code[] {
  return [...new Set(Object.values(route.responses).flatMap(errorCodesOf))].sort((a, b) => a - b);
}

type BuildContext = {
  /** The named schemas (a `title` on the zod schema, see `named` in contracts/common.ts). */
  components: Record<string, SchemaObject>;
  /** Success envelopes named so far (name -> schema), so that equal envelopes share one name. */
  envelopes: Map<string, SchemaObject>;
};

/** A success envelope as a named component: `<OperationId>Envelope`, or the name of an equal one. */
function namedEnvelope(schema: SchemaObject, operationId: string, ctx: BuildContext): SchemaObject {
  if (schema.$ref) return schema;
  const json = JSON.stringify(schema);
  const name = [...ctx.envelopes].find(([, s]) => JSON.stringify(s) === json)?.[0] ?? `${pascal(operationId)}Envelope`;
  ctx.envelopes.set(name, schema);
  return schemaRef(name);
}

function mapParameters(params: ParameterObject[], dropHeaders: string[]): ParameterObject[] {
  return params
    .filter((p) => !(p.in === 'header' && dropHeaders.includes(p.name)))
    .map((p) => {
      const { description: schemaDescription, ...fixed } = fixSchema(p.schema ?? {});
      const name = p.in === 'header' && p.name.toLowerCase() === 'idempotency-key' ? 'Idempotency-Key' : p.name;
      let description = p.description ?? schemaDescription ?? PARAMETER_DESCRIPTIONS[name];
      let example = PARAMETER_EXAMPLES[`${p.in}:${name}`] ?? PARAMETER_EXAMPLES[name];
      let schema: SchemaObject = fixed;
      // A header is text on the wire. Typed as a number, generated clients put a number among
      // their headers, which orval's fetch client cannot compile; as decimal digits, every
      // generator gives a string. The service reads the digits as an integer (the range is in the description).
      if (p.in === 'header' && fixed.type === 'integer') {
        schema = { type: 'string', pattern: '^[1-9][0-9]{0,9}$' };
        description = `${description ?? ''} (an integer, sent as decimal digits: at most ${fixed.maximum ?? 2147483647})`.trim();
        if (example !== undefined) example = String(example);
      }
      return {
        name,
        in: p.in,
        ...(description && { description }),
        ...(p.required && { required: true }),
        schema,
        ...(example !== undefined && { example }),
        ...(p.style && { style: p.style }),
      };
    });
}

/** The field a 2000 example complains about: the first required one, else the first one sent with the wrong type. */
function bodyFieldForExample(body: SchemaObject | undefined): ErrorExampleContext['bodyField'] {
  const properties = Object.entries(body?.properties ?? {});
  const required = properties.find(([name]) => body?.required?.includes(name));
  if (required) return { name: required[0], message: 'Required' };
  const [name, schema] = properties.find(([, s]) => s.type) ?? [];
  return name && schema
    ? {
        name,
        message: `Expected ${schema.type === 'integer' ? 'number' : schema.type}, received ${schema.type === 'string' ? 'number' : 'string'}`,
      }
    : undefined;
}

/**
 * The example answer of a write shows what its example body sent: each field of the body example
 * that the answer also has and that fits it there (by the answer's zod schema) replaces the one
 * of the entity's example. So `PATCH` with `{enabled: false}` answers a rule with `enabled: false`.
 */
function answerTo(body: unknown, sample: unknown, envelopeSchema: unknown): unknown {
  const answer = isZodObject(envelopeSchema) ? extractZodObjectShape(envelopeSchema).response : undefined;
  if (!isZodObject(answer) || !body || typeof body !== 'object' || !sample || typeof sample !== 'object') return sample;
  const shape = extractZodObjectShape(answer) as Record<string, z.ZodTypeAny>;
  const fits = Object.entries(body).filter(([key, value]) => key in sample && shape[key]?.safeParse(value).success);
  return { ...sample, ...Object.fromEntries(fits) };
}

/** The summary of a code in the document: `2031 Given chat ID does not exist`. */
const codeText = (code: Code) => `${code} ${CODES[code].description}`;

type Body = { schema?: SchemaObject; example?: unknown };

function mapResponses(raw: OperationObject, { route, group, operationId }: RouteInfo, body: Body, ctx: BuildContext) {
  const exampleContext: ErrorExampleContext = {
    bodyField: bodyFieldForExample(body.schema?.$ref ? ctx.components[body.schema.$ref.split('/').pop() ?? ''] : body.schema),
    queryField: fieldNames(route.query).includes('page_size') ? 'page_size' : fieldNames(route.query)[0],
    pathField: fieldNames(route.pathParams)[0],
    allow: [...ROUTES.values()].filter((r) => r.route.path === route.path).map((r) => r.route.method),
    path: route.path,
  };
  const out: Record<string, ResponseObject> = {};
  for (const [key, declared] of Object.entries(route.responses)) {
    const status = Number(key);
    const headers: Record<string, { $ref: string }> = { trxid: headerRef('trxid') };
    // Wrong methods and refused bodies are answered before the request is counted, so without Rate-Limit-*.
    if (GROUPS[group].rateLimited && !UNCOUNTED_STATUSES.has(status)) {
      for (const h of ['Rate-Limit-Limit', 'Rate-Limit-Remaining', 'Rate-Limit-Reset']) headers[h] = headerRef(h);
    }
    if (status === 429) headers['Retry-After'] = headerRef('Retry-After');
    if (status === 405) headers.Allow = headerRef('Allow');
    // A success that is not JSON (a Server-Sent Events stream): its media type, example and events.
    if (isAppRouteOtherResponse(declared)) {
      const { example, events } = metaOf(declared.body);
      for (const e of Object.values(events ?? {})) ctx.components[nameOf(e)] ??= { title: nameOf(e), ...toOpenApiSchema(e) };
      out[key] = {
        description: declared.contentType === 'text/event-stream' ? 'Server-Sent Events' : key,
        headers,
        content: { [declared.contentType]: { schema: { type: 'string' }, ...(example !== undefined && { example }) } },
        'x-status-codes': [],
        ...(events && { 'x-sse-events': Object.fromEntries(Object.entries(events).map(([event, e]) => [event, schemaRef(nameOf(e))])) }),
      };
      continue;
    }
    const schema = fixSchema(structuredClone(raw.responses[key]?.content?.['application/json']?.schema ?? {}));
    // An error response stands for the codes `errors(...)` gave it; a success for its envelope's one.
    let codes: Code[] = errorCodesOf(declared).toSorted((a, b) => a - b);
    let example = (code: Code): unknown => errorEnvelopeExample(code, exampleContext);
    if (status < 300) {
      const code = schema.properties?.status_code?.enum?.[0] as Code | undefined;
      if (code === undefined) throw new Error(`${operationId}: no status_code for HTTP ${status}`);
      const answer = answerTo(body.example, sampleFromSchema(schema.properties?.response ?? {}, ctx.components), declared);
      codes = [code];
      example = () => schema.example ?? { status_code: code, description: CODES[code].description, response: answer };
      if (route.path.endsWith('/authorize')) headers.access_token = headerRef('access_token');
      if (headerNames(route).includes('idempotency-key')) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
    }
    const examples = Object.fromEntries(codes.map((c) => [c, { summary: codeText(c), value: example(c) }]));
    out[key] = {
      description: codes.map(codeText).join('; '),
      headers,
      content: { 'application/json': { schema: status < 300 ? namedEnvelope(schema, operationId, ctx) : schema, examples } },
      'x-status-codes': codes,
    };
  }
  return out;
}

function mapOperation(raw: OperationObject, ctx: BuildContext): OperationObject {
  const info = ROUTES.get(raw.operationId ?? '');
  if (!info) throw new Error(`unknown route ${raw.operationId}`);
  const { operationId, group, routeKey } = info;
  const { scheme, open } = GROUPS[group];
  const security = open.includes(routeKey) ? [] : [{ [scheme]: [] }];
  const schema = raw.requestBody?.content?.['application/json']?.schema;
  const named = NAMED_BODY_EXAMPLES[operationId];
  const body: Body = { schema, example: named ? Object.values(named)[0].value : schema && sampleFromSchema(schema, ctx.components) };
  return {
    operationId,
    summary: raw.summary,
    ...(raw.description && { description: raw.description }),
    tags: [group !== 'bot' ? group : routeKey === 'transferChat' ? 'transfer' : info.routerKey],
    ...(raw.deprecated && { deprecated: true }),
    security,
    // The token is described once, as the accessToken security scheme, rather than as a parameter of each operation.
    parameters: mapParameters(
      (raw.parameters ?? []) as ParameterObject[],
      security.length && scheme === 'accessToken' ? ['access_token'] : [],
    ),
    ...(takesBodyStream(info.route) && {
      requestBody: {
        required: true,
        content: { 'text/event-stream': { schema: { type: 'string' }, example: REPLY_STREAM_EXAMPLE } },
      },
    }),
    ...(schema && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema, ...(named ? { examples: named } : { example: body.example }) } },
      },
    }),
    responses: mapResponses(raw, info, body, ctx),
  };
}

/**
 * The OpenAPI 3.0 document of the APIs of `scope`, generated from the ts-rest contract: operations
 * with their parameters, bodies, every response with the status codes it can carry and examples,
 * the entities, payloads and envelopes they use and (with the bot API) the webhook event bodies as
 * components, and the code catalogue.
 */
export function buildOpenApiDocument(scope: DocumentScope = 'all'): OpenApiDocument {
  const { groups, title } = DOCUMENTS[scope];
  const apis = Object.fromEntries(groups.map((g) => [g, GROUPS[g].api]));
  const generated = generateOpenApi(apis, { info: { title: '', version: '' } }, { setOperationId: 'concatenated-path' });
  // ts-rest's generator has made each schema with a `title` (`named` in contracts/) a component.
  const components = Object.fromEntries(
    Object.entries((generated.components?.schemas ?? {}) as Record<string, SchemaObject>).map(([name, s]) => [name, fixSchema(s)]),
  );
  const ctx: BuildContext = { components, envelopes: new Map() };
  const paths = Object.fromEntries(
    Object.entries(generated.paths as Record<string, Record<string, OperationObject>>).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, mapOperation(op, ctx)])),
    ]),
  ) as Record<string, PathItemObject>;
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const ids = operations.map((op) => op.operationId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`operationId ${duplicate} is used twice`);

  const bot = groups.includes('bot');
  const hooks = bot ? webhooks() : {};
  const tags = new Set([...operations.flatMap((op) => op.tags ?? []), ...(bot ? ['webhooks'] : [])]);
  const schemes = new Set(operations.flatMap((op) => (op.security ?? []).flatMap(Object.keys)));
  // Every schema is used; of the fixed components, keep what this document's operations and webhooks refer to.
  const refs = new Set(JSON.stringify({ paths, hooks }).match(/#\/components\/\w+\/[^"]+/g));
  const keep = <T>(kind: string, entries: Record<string, T>) =>
    Object.fromEntries(Object.entries(entries).filter(([name]) => refs.has(`#/components/${kind}/${name}`)));
  const fixed = structuredClone(FIXED_COMPONENTS);
  return {
    openapi: '3.0.3',
    info: {
      title,
      version: '1.0.0',
      description: infoDescription({ bot, admin: groups.includes('admin'), widget: groups.includes('widget') }),
    },
    servers: [
      {
        url: '{baseUrl}',
        description: `This service's origin; the paths include their prefix (${groups.map((g) => `${GROUPS[g].base}/...`).join(', ')})`,
        variables: {
          baseUrl: {
            default: DEFAULT_ORIGIN,
            description:
              'Scheme, host and port the service is reached at, without a trailing slash (`npm start` serves http://localhost:3000)',
          },
        },
      },
    ],
    tags: Object.entries(TAGS).flatMap(([name, description]) => (tags.has(name) ? [{ name, description }] : [])),
    paths,
    ...(bot && { 'x-webhooks': hooks }),
    components: {
      schemas: {
        ...components,
        ...Object.fromEntries(ctx.envelopes),
        ...(bot ? { ...eventComponents(), WebhookEvent: webhookEventUnion() } : {}),
      },
      securitySchemes: Object.fromEntries(Object.entries(fixed.securitySchemes).filter(([name]) => schemes.has(name))),
      headers: keep('headers', fixed.headers),
      parameters: keep('parameters', fixed.parameters),
    },
    'x-status-codes': statusCodeCatalogue(),
  };
}

const served = new Map<DocumentScope, string>();

/**
 * The document as a running server serves it: built once per process, with the server variable's
 * default set to the origin the reader reached (`origin`), so a client generated from
 * `/api/v1/openapi.json` of a running server points at that server, not at localhost:3000.
 */
export function servedOpenApiDocument(scope: DocumentScope, origin: string): string {
  let text = served.get(scope);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApiDocument(scope));
    served.set(scope, text);
  }
  return text.replace(`"default":${JSON.stringify(DEFAULT_ORIGIN)}`, `"default":${JSON.stringify(origin)}`);
}
