/**
 * The parts of an OpenAPI 3.0 document this project builds and reads (the generator, the tests and
 * the tests). Loose on purpose: the document is JSON, and these types only name what we touch.
 */
export type SchemaObject = {
  $ref?: string;
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  additionalProperties?: boolean | SchemaObject;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  [extension: string]: unknown;
};

export type ExampleObject = { summary?: string; value: unknown };

export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  schema?: SchemaObject;
  example?: unknown;
  style?: string;
};

export type HeaderObject = { description?: string; schema: SchemaObject; required?: boolean; example?: unknown };
export type Ref = { $ref: string };

export type MediaTypeObject = { schema?: SchemaObject; example?: unknown; examples?: Record<string, ExampleObject> };

export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, MediaTypeObject>;
  /** The service status codes this response can carry, in the order of the catalogue. */
  'x-status-codes'?: number[];
};

export type OperationObject = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: (ParameterObject | Ref)[];
  requestBody?: { description?: string; required?: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
};

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export type TagObject = { name: string; description?: string };

export type StatusCodeEntry = { code: number; http: number; description: string };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string; [k: string]: unknown };
  servers: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string; enum?: string[] }>;
  }[];
  tags: TagObject[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, Record<string, unknown>>;
    headers: Record<string, HeaderObject>;
    parameters: Record<string, ParameterObject>;
  };
  'x-webhooks'?: Record<string, PathItemObject>;
  'x-status-codes': StatusCodeEntry[];
};
