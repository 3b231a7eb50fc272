import { type AppRoute, type AppRouter, extractZodObjectShape, isAppRoute, isAppRouteOtherResponse, isZodObject } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { z } from 'zod';
import { adminContract } from '@/contracts/admin';
import { botContract } from '@/contracts/bot';
import { POST_MESSAGE_EXAMPLES } from '@/contracts/bot/message-examples';
import { CODES, type Code } from '@/contracts/codes';
import { errorCodesOf } from '@/contracts/errors';
import { widgetContract } from '@/contracts/widget';
import { eventComponents, webhookEventUnion } from './events';
import { type ErrorExampleContext, errorEnvelopeExample, PARAMETER_EXAMPLES, successEnvelopeExample } from './examples';
import { infoDescription, statusCodeCatalogue } from './overview';
import { sampleFromSchema } from './sample';
import { fixSchema, metaOf, nameOf, toOpenApiSchema } from './schema-tools';
import type { OpenApiDocument, OperationObject, ParameterObject, PathItemObject, ResponseObject, SchemaObject } from './types';

type Ref = { $ref: string };

import { fixedComponents, webhooks } from './webhooks';

/**
 * The APIs a document can cover, by group; GROUPS says how each group's operations are tagged,
 * named and secured. Adding an API is one line here (and its import).
 */
const APIS: Record<GroupName, AppRouter> = {
  bot: botContract,
  admin: adminContract,
  widget: widgetContract,
};

/**
 * Which document: `bot` (served at /api/v1/openapi.json and committed as openapi.json: what a bot
 * client is generated from), `admin` (/api/admin/openapi.json, openapi-admin.json), `widget` (the
 * chat widget's customer API, /api/widget/openapi.json, openapi-widget.json) or `all` (the bot and
 * admin APIs in one document, which the contract tests walk with a VA token and an admin session).
 */
export type DocumentScope = 'bot' | 'admin' | 'widget' | 'all';
const SCOPES: Record<DocumentScope, GroupName[]> = { bot: ['bot'], admin: ['admin'], widget: ['widget'], all: ['bot', 'admin'] };
/** The documents committed at the repository root (`npm run openapi:write`), by file name. */
export const COMMITTED_DOCUMENTS: Record<string, DocumentScope> = {
  'openapi.json': 'bot',
  'openapi-admin.json': 'admin',
  'openapi-widget.json': 'widget',
};
const BASE_PATHS: Record<GroupName, string> = { bot: '/api/v1', admin: '/api/admin', widget: '/api/widget' };
const TITLES: Record<DocumentScope, string> = {
  bot: 'VA Chat API',
  admin: 'VA Chat Admin API',
  widget: 'VA Chat Widget API',
  all: 'VA Chat API',
};

type GroupName = 'bot' | 'admin' | 'widget';
type Security = Record<string, string[]>[];
type GroupRules = {
  tag: (routerKey: string, routeKey: string) => string;
  operationId: (routeKey: string) => string;
  security: (route: AppRoute, routeKey: string) => Security;
  /** Whether answers carry the Rate-Limit-* headers. */
  rateLimited: boolean;
};

const GROUPS: Record<GroupName, GroupRules> = {
  bot: {
    tag: (routerKey, routeKey) => (routeKey === 'transferChat' ? 'transfer' : routerKey),
    operationId: (routeKey) => routeKey,
    security: (route) => (headerNames(route).includes('access_token') ? [{ accessToken: [] }] : []),
    rateLimited: true,
  },
  admin: {
    tag: () => 'admin',
    operationId: (routeKey) => (routeKey.startsWith('admin') ? routeKey : `admin${routeKey[0].toUpperCase()}${routeKey.slice(1)}`),
    security: (_route, routeKey) => (/^(admin)?login$/i.test(routeKey) ? [] : [{ adminSession: [] }]),
    rateLimited: false,
  },
  widget: {
    tag: () => 'widget',
    operationId: (routeKey) => `widget${routeKey[0].toUpperCase()}${routeKey.slice(1)}`,
    security: (_route, routeKey) => (routeKey === 'getApp' || routeKey === 'createVisitor' ? [] : [{ widgetCustomer: [] }]),
    rateLimited: true,
  },
};

const TAGS = [
  { name: 'auth', description: 'Exchange the API key for an access token.' },
  { name: 'teams', description: "The account's teams and their skills: the targets of transfers and the `team_id` header." },
  { name: 'chats', description: 'Create, list, read and update chats: tags, status, assignee, alias and other details.' },
  { name: 'messages', description: "A chat's transcript; replies, announcements and inbound messages." },
  { name: 'transfer', description: "Hand a chat over to a team's queue or a skill (private beta in the original product)." },
  {
    name: 'events',
    description:
      "Pull the VA's events instead of (or besides) receiving webhooks: one ordered cursor over all its chats, by long-poll or a Server-Sent Events stream, with acknowledgement.",
  },
  { name: 'me', description: 'Who the VA is (login ID, team, subscriptions) and the channel assets it can start chats on.' },
  {
    name: 'admin',
    description:
      "The administrators' API behind the admin pages: accounts, teams, users, skills, Virtual Agents, assets, routing rules, chats and event deliveries.",
  },
  {
    name: 'widget',
    description: "The chat widget's customer API: a customer of a livechat asset starts a chat, writes and follows it live.",
  },
  { name: 'webhooks', description: "Requests the service sends to the VA's webhook (see **Webhooks** above). Reply HTTP 200 within 5 s." },
];

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  chat_id: "The chat's `chat_id`",
};

/** Statuses answered before the rate limiter counts the request (2099, 2008, 2009). */
const UNCOUNTED_STATUSES = new Set([405, 413, 415]);

/** Operations whose body takes several shapes show one named example per shape instead of one `example`. */
export const NAMED_BODY_EXAMPLES: Record<string, Record<string, { summary: string; value: unknown }>> = {
  postMessage: Object.fromEntries(
    Object.entries(POST_MESSAGE_EXAMPLES).map(([name, e]) => [name, { summary: `${e.summary} (a ${e.channel} chat)`, value: e.value }]),
  ),
};

/** Decimal digits of a positive integer of up to ten digits (the range itself is in the description). */
export const INTEGER_HEADER_PATTERN = '^[1-9][0-9]{0,9}$';

const headerRef = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });
const schemaRef = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });

function headerNames(route: AppRoute): string[] {
  return isZodObject(route.headers) ? Object.keys(extractZodObjectShape(route.headers)) : [];
}

function fieldNames(schema: unknown): string[] {
  return isZodObject(schema) ? Object.keys(extractZodObjectShape(schema)) : [];
}

/**
 * The status codes a route can answer with: those of its error responses (`errors(...)` in
 * contracts/errors.ts), plus 2014 for routes with path parameters (the handler maps every
 * path-parameter failure to it), in numeric order.
 */
export function codesOfRoute(route: AppRoute): Code[] {
  const declared = Object.values(route.responses).flatMap(errorCodesOf);
  const implied: Code[] = route.pathParams ? [2014] : [];
  return [...new Set([...declared, ...implied])].sort((a, b) => a - b);
}

type RouteInfo = { group: GroupName; routerKey: string; routeKey: string; route: AppRoute };

/** Every route of `apis`, keyed by the id @ts-rest/open-api gives it with 'concatenated-path'. */
function routeIndex(apis: Partial<Record<GroupName, AppRouter>> = APIS): Map<string, RouteInfo> {
  const out = new Map<string, RouteInfo>();
  const walk = (router: AppRouter, trail: string[]) => {
    for (const [key, value] of Object.entries(router)) {
      if (isAppRoute(value)) {
        const [group, routerKey = key] = trail;
        out.set([...trail, key].join('.'), { group: group as GroupName, routerKey, routeKey: key, route: value });
      } else walk(value as AppRouter, [...trail, key]);
    }
  };
  walk(apis as AppRouter, []);
  return out;
}

function allowedMethods(index: Map<string, RouteInfo>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { route } of index.values()) out.set(route.path, [...(out.get(route.path) ?? []), route.method]);
  return out;
}

/** Every documented route of `scope` with its operationId: what the tests check the document against. */
export function documentedRoutes(scope: DocumentScope = 'all'): { operationId: string; route: AppRoute }[] {
  return [...routeIndex(Object.fromEntries(SCOPES[scope].map((g) => [g, APIS[g]]))).values()].map((info) => ({
    operationId: GROUPS[info.group].operationId(info.routeKey),
    route: info.route,
  }));
}

type BuildContext = {
  index: Map<string, RouteInfo>;
  allow: Map<string, string[]>;
  /** The named schemas (a `title` on the zod schema, see `named` in contracts/schemas/common.ts). */
  components: Record<string, SchemaObject>;
  /** Success envelopes named so far (name -> schema), so that equal envelopes share one name. */
  envelopes: Map<string, SchemaObject>;
};

const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);

/** A success envelope as a named component: `<OperationId>Envelope`, or the name of an equal one. */
function namedEnvelope(schema: SchemaObject, operationId: string, ctx: BuildContext): SchemaObject {
  if (schema.$ref) return schema;
  const json = JSON.stringify(schema);
  const existing = [...ctx.envelopes].find(([, s]) => JSON.stringify(s) === json)?.[0];
  const name = existing ?? `${pascal(operationId)}Envelope`;
  ctx.envelopes.set(name, schema);
  return schemaRef(name);
}

/** Every `$ref` target reachable from `root` through the components, as `#/components/...` strings. */
function reachableRefs(root: unknown, components: Record<string, Record<string, unknown>>): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !seen.has(ref)) {
      seen.add(ref);
      const [, , kind, name] = ref.split('/');
      visit(components[kind]?.[name]);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
  return seen;
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
      // generator gives a string. The service reads the digits as an integer.
      if (p.in === 'header' && fixed.type === 'integer') {
        schema = { type: 'string', pattern: INTEGER_HEADER_PATTERN };
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

function mapResponses(raw: OperationObject, info: RouteInfo, operationId: string, body: Body, ctx: BuildContext) {
  const { route, group } = info;
  const codes = codesOfRoute(route);
  const statuses = new Set([...Object.keys(raw.responses).map(Number), ...codes.map((c) => CODES[c].http)]);
  const exampleContext: ErrorExampleContext = {
    bodyField: bodyFieldForExample(body.schema?.$ref ? ctx.components[body.schema.$ref.split('/').pop() ?? ''] : body.schema),
    queryField: fieldNames(route.query).includes('page_size') ? 'page_size' : fieldNames(route.query)[0],
    pathField: fieldNames(route.pathParams)[0],
    allow: ctx.allow.get(route.path) ?? [route.method],
    path: route.path,
  };
  const out: Record<string, ResponseObject> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const headers: Record<string, Ref> = { trxid: headerRef('trxid') };
    // Wrong methods and refused bodies are answered before the request is counted, so without Rate-Limit-*.
    if (GROUPS[group].rateLimited && !UNCOUNTED_STATUSES.has(status)) {
      for (const h of ['Rate-Limit-Limit', 'Rate-Limit-Remaining', 'Rate-Limit-Reset']) headers[h] = headerRef(h);
    }
    if (status === 429) headers['Retry-After'] = headerRef('Retry-After');
    if (status === 405) headers.Allow = headerRef('Allow');
    const declared = route.responses[status];
    // A success that is not JSON (a Server-Sent Events stream): its media type, example and events.
    if (status < 300 && isAppRouteOtherResponse(declared)) {
      const { example, events } = metaOf(declared.body);
      for (const e of Object.values(events ?? {})) ctx.components[nameOf(e)] ??= { title: nameOf(e), ...toOpenApiSchema(e) };
      out[status] = {
        description: declared.contentType === 'text/event-stream' ? 'Server-Sent Events' : String(status),
        headers,
        content: { [declared.contentType]: { schema: { type: 'string' }, ...(example !== undefined && { example }) } },
        'x-status-codes': [],
        ...(events && { 'x-sse-events': Object.fromEntries(Object.entries(events).map(([event, e]) => [event, schemaRef(nameOf(e))])) }),
      };
      continue;
    }
    const rawSchema = raw.responses[status]?.content?.['application/json']?.schema;
    const schema = rawSchema ? fixSchema(structuredClone(rawSchema)) : schemaRef('ErrorEnvelope');
    let examples: Record<string, { summary: string; value: unknown }>;
    if (status < 300) {
      const code = (schema.properties?.status_code?.enum?.[0] as Code | undefined) ?? codes.find((c) => CODES[c].http === status);
      if (code === undefined) throw new Error(`${operationId}: no status_code for HTTP ${status}`);
      const answer = answerTo(body.example, sampleFromSchema(schema.properties?.response ?? {}, ctx.components), declared);
      examples = { [code]: { summary: codeText(code), value: schema.example ?? successEnvelopeExample(code, answer) } };
      if (route.path.endsWith('/authorize')) headers.access_token = headerRef('access_token');
      if (headerNames(route).includes('idempotency-key')) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
    } else {
      const here = codes.filter((c) => CODES[c].http === status);
      examples = Object.fromEntries(here.map((c) => [c, { summary: codeText(c), value: errorEnvelopeExample(c, exampleContext) }]));
    }
    const statusCodes = Object.keys(examples).map(Number) as Code[];
    out[status] = {
      description: statusCodes.map(codeText).join('; '),
      headers,
      content: { 'application/json': { schema: status < 300 ? namedEnvelope(schema, operationId, ctx) : schema, examples } },
      'x-status-codes': statusCodes,
    };
  }
  return out;
}

type Body = { schema?: SchemaObject; example?: unknown };

function mapOperation(raw: OperationObject, ctx: BuildContext): OperationObject {
  const info = ctx.index.get(raw.operationId ?? '');
  if (!info) throw new Error(`unknown route ${raw.operationId}`);
  const rules = GROUPS[info.group];
  const operationId = rules.operationId(info.routeKey);
  const security = rules.security(info.route, info.routeKey);
  const schema = raw.requestBody?.content?.['application/json']?.schema;
  const named = NAMED_BODY_EXAMPLES[operationId];
  const body: Body = { schema, example: named ? Object.values(named)[0].value : schema && sampleFromSchema(schema, ctx.components) };
  return {
    operationId,
    summary: raw.summary,
    ...(raw.description && { description: raw.description }),
    tags: [rules.tag(info.routerKey, info.routeKey)],
    ...(raw.deprecated && { deprecated: true }),
    security,
    // The token is described once, as the accessToken security scheme, rather than as a parameter of each operation.
    parameters: mapParameters(
      (raw.parameters ?? []) as ParameterObject[],
      security.some((s) => 'accessToken' in s) ? ['access_token'] : [],
    ),
    ...(schema && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema, ...(named ? { examples: named } : { example: body.example }) } },
      },
    }),
    responses: mapResponses(raw, info, operationId, body, ctx),
  };
}

/**
 * The OpenAPI 3.0 document of the APIs of `scope`, generated from the ts-rest contract: operations
 * with their parameters, bodies, every response with the status codes it can carry and examples,
 * the entities, payloads and envelopes they use and (with the bot API) the webhook event bodies as
 * components, and the code catalogue.
 */
export function buildOpenApiDocument(scope: DocumentScope = 'all'): OpenApiDocument {
  const groups = SCOPES[scope];
  const apis = Object.fromEntries(groups.map((g) => [g, APIS[g]]));
  const index = routeIndex(apis);
  const generated = generateOpenApi(apis as AppRouter, { info: { title: '', version: '' } }, { setOperationId: 'concatenated-path' });
  // ts-rest's generator has made each schema with a `title` (`named` in contracts/) a component.
  const components = Object.fromEntries(
    Object.entries((generated.components?.schemas ?? {}) as Record<string, SchemaObject>).map(([name, s]) => [name, fixSchema(s)]),
  );
  const ctx: BuildContext = { index, allow: allowedMethods(routeIndex()), components, envelopes: new Map() };
  const paths = Object.fromEntries(
    Object.entries(generated.paths as Record<string, Record<string, OperationObject>>).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, mapOperation(op, ctx)])),
    ]),
  ) as Record<string, PathItemObject>;
  const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`operationId ${duplicate} is used twice`);

  const bot = groups.includes('bot');
  const admin = groups.includes('admin');
  const widget = groups.includes('widget');
  const hooks = bot ? webhooks() : {};
  const used = new Set([
    ...Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
    ...(bot ? ['webhooks'] : []),
  ]);
  const all: OpenApiDocument['components'] = {
    schemas: {
      ...components,
      ...Object.fromEntries(ctx.envelopes),
      ...(bot ? { ...eventComponents(), WebhookEvent: webhookEventUnion() } : {}),
    },
    ...fixedComponents({ admin, widget }),
  };
  // Keep only what this document's operations and webhooks refer to, so each document stands alone.
  const roots = { paths, hooks, ...(bot && { union: { $ref: '#/components/schemas/WebhookEvent' } }) };
  const refs = reachableRefs(roots, all as unknown as Record<string, Record<string, unknown>>);
  const schemes = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op.security ?? []).flatMap(Object.keys))),
  );
  const keep = <T>(kind: string, entries: Record<string, T>) =>
    Object.fromEntries(Object.entries(entries).filter(([name]) => refs.has(`#/components/${kind}/${name}`)));
  return {
    openapi: '3.0.3',
    info: {
      title: TITLES[scope],
      version: '1.0.0',
      description: infoDescription({ bot, admin, widget }),
    },
    servers: [
      {
        url: '{baseUrl}',
        description: `This service's origin; the paths include their prefix (${groups.map((g) => `${BASE_PATHS[g]}/...`).join(', ')})`,
        variables: {
          baseUrl: {
            default: 'http://localhost:3000',
            description:
              'Scheme, host and port the service is reached at, without a trailing slash (`npm start` serves http://localhost:3000)',
          },
        },
      },
    ],
    tags: TAGS.filter((t) => used.has(t.name)),
    paths,
    ...(bot && { 'x-webhooks': hooks }),
    components: {
      schemas: keep('schemas', all.schemas),
      securitySchemes: Object.fromEntries(Object.entries(all.securitySchemes).filter(([name]) => schemes.has(name))),
      headers: keep('headers', all.headers),
      parameters: keep('parameters', all.parameters),
    },
    'x-status-codes': statusCodeCatalogue(),
  };
}
