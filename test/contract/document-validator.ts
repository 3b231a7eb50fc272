import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { toJsonSchema } from '@/platform/openapi/schema-tools';
import type { OpenApiDocument, OperationObject, ParameterObject, SchemaObject } from '@/platform/openapi/types';
import { type DocOperation, operationsOf } from './bad-input';

/** Codes that mean "your input does not match the schema": a request the document allows must never get them. */
const SCHEMA_CODES = new Set([2000, 2001, 2002, 2006, 2014]);

export type Exchange = {
  method: string;
  /** Path with query string, as sent (`/api/v1/chats?status=queued`). */
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  status: number;
  responseBody: unknown;
};

export type Verdict = {
  operationId: string | undefined;
  /** Whether the document allows the request (parameters and body). */
  requestAllowed: boolean;
  requestErrors: string[];
  /** Ways the answer breaks the document, or refuses an allowed request for an unstated reason. */
  violations: string[];
};

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}

/**
 * Validates requests and responses against an OpenAPI 3.0 document with ajv, in process: the
 * document's schemas are turned into JSON Schema (`nullable` to `null` types, boolean bounds to
 * numeric ones) and compiled once; parameters are validated as the strings they travel as, coerced
 * to their declared types.
 */
export class DocumentValidator {
  private readonly bodies = new Ajv({ strict: false, allErrors: true });
  private readonly params = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();
  private readonly routes: { re: RegExp; method: string; o: DocOperation }[];

  constructor(readonly doc: OpenApiDocument) {
    const defs = Object.fromEntries(Object.entries(doc.components.schemas).map(([name, s]) => [name, toJsonSchema(s)]));
    for (const ajv of [this.bodies, this.params]) {
      addFormats(ajv);
      ajv.addSchema({ $id: 'doc', $defs: defs });
    }
    this.routes = operationsOf(doc).map((o) => ({
      re: new RegExp(`^${o.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
      method: o.method,
      o,
    }));
  }

  private validator(ajv: Ajv, schema: SchemaObject | Record<string, unknown>): ValidateFunction {
    let fn = this.compiled.get(schema);
    if (!fn) {
      const json = JSON.stringify('type' in schema || '$ref' in schema ? toJsonSchema(schema as SchemaObject) : schema);
      fn = ajv.compile(JSON.parse(json.replaceAll('"#/$defs/', '"doc#/$defs/')));
      this.compiled.set(schema, fn);
    }
    return fn;
  }

  find(method: string, pathname: string): { o: DocOperation; pathParams: Record<string, string> } | undefined {
    for (const r of this.routes) {
      const m = r.method === method ? r.re.exec(pathname) : null;
      if (m) return { o: r.o, pathParams: Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)])) };
    }
    return undefined;
  }

  /** The errors of a request against its operation: path, query, header parameters and body. */
  requestErrors(
    op: OperationObject,
    req: { pathParams: Record<string, string>; query: URLSearchParams; headers: Record<string, string>; body?: unknown },
  ) {
    const errors: string[] = [];
    const params = (op.parameters ?? []).filter((p): p is ParameterObject => 'in' in p);
    const lowerHeaders = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const sources = {
      path: req.pathParams,
      query: Object.fromEntries(req.query),
      header: lowerHeaders,
    } as Record<string, Record<string, string>>;
    for (const where of ['path', 'query', 'header'] as const) {
      const declared = params.filter((p) => p.in === where);
      const schema = {
        type: 'object',
        properties: Object.fromEntries(
          declared.map((p) => [where === 'header' ? p.name.toLowerCase() : p.name, toJsonSchema(p.schema ?? {})]),
        ),
        required: declared.filter((p) => p.required).map((p) => (where === 'header' ? p.name.toLowerCase() : p.name)),
        // Unknown query parameters are refused (2001), as the operations say; headers may be anything.
        additionalProperties: where !== 'query',
      };
      const fn = this.params.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"doc#/$defs/')));
      if (!fn({ ...sources[where] })) errors.push(...describeErrors(fn.errors).map((e) => `${where}${e}`));
    }
    errors.push(...this.credentialErrors(op, lowerHeaders));
    const content = op.requestBody?.content['application/json'];
    if (content?.schema) {
      const fn = this.validator(this.bodies, content.schema);
      if (req.body === undefined) errors.push('body is required');
      else if (!fn(req.body)) errors.push(...describeErrors(fn.errors).map((e) => `body${e}`));
    }
    return errors;
  }

  /**
   * The operation's `security`: one of its requirements must be met by an API key in a header or
   * a cookie. (Whether the key is valid is the service's business; whether it was sent is the
   * document's.)
   */
  private credentialErrors(op: OperationObject, headers: Record<string, string>): string[] {
    const requirements = op.security ?? [];
    if (requirements.length === 0) return [];
    const cookies = new Set((headers.cookie ?? '').split(';').map((c) => c.split('=')[0].trim()));
    const met = requirements.some((requirement) =>
      Object.keys(requirement).every((name) => {
        const scheme = this.doc.components.securitySchemes[name] as { in?: string; name?: string } | undefined;
        if (scheme?.in === 'header') return headers[String(scheme.name).toLowerCase()] !== undefined;
        if (scheme?.in === 'cookie') return cookies.has(String(scheme.name));
        return true;
      }),
    );
    return met ? [] : [`credentials: none of ${JSON.stringify(requirements)} was sent`];
  }

  /** Checks one request and its answer against the document. */
  check(x: Exchange): Verdict {
    const url = new URL(x.url, 'http://localhost');
    const found = this.find(x.method, url.pathname);
    if (!found) return { operationId: undefined, requestAllowed: false, requestErrors: ['no such operation'], violations: [] };
    const { o, pathParams } = found;
    const requestErrors = this.requestErrors(o.op, { pathParams, query: url.searchParams, headers: x.headers, body: x.body });
    const violations: string[] = [];
    const response = o.op.responses[String(x.status)];
    const code = (x.responseBody as { status_code?: unknown } | null)?.status_code;
    if (!response) violations.push(`HTTP ${x.status} is not a documented response`);
    else {
      const schema = response.content?.['application/json']?.schema;
      if (schema) {
        const fn = this.validator(this.bodies, schema);
        if (!fn(x.responseBody)) violations.push(...describeErrors(fn.errors).map((e) => `response${e}`));
      }
      if (typeof code === 'number' && !response['x-status-codes']?.includes(code)) {
        violations.push(`status_code ${code} is not documented under HTTP ${x.status}`);
      }
    }
    if (requestErrors.length === 0 && x.status >= 400 && x.status < 500 && typeof code === 'number' && SCHEMA_CODES.has(code)) {
      violations.push(`the document allows this request, but the service refused it with ${code}: ${JSON.stringify(x.responseBody)}`);
    }
    return { operationId: o.op.operationId, requestAllowed: requestErrors.length === 0, requestErrors, violations };
  }
}
