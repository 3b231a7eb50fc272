import type * as oa from 'openapi3-ts';

/**
 * The OpenAPI 3.0 types of openapi3-ts (those @ts-rest/open-api's generator returns), with the
 * parts that hold schemas narrowed to the documents we build: a schema's parts are schemas that may
 * be a `$ref` (openapi3-ts types them "schema or reference"), the component kinds we use are always
 * there, and our extensions are named.
 */
type Keywords<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type With<T, Narrowed> = Omit<Keywords<T>, keyof Narrowed> & Narrowed;

export type SchemaObject = With<
  oa.SchemaObject,
  {
    $ref?: string;
    type?: string;
    properties?: Record<string, SchemaObject>;
    items?: SchemaObject;
    additionalProperties?: boolean | SchemaObject;
    oneOf?: SchemaObject[];
    anyOf?: SchemaObject[];
    allOf?: SchemaObject[];
    not?: SchemaObject;
  }
> & { [extension: string]: unknown };
export type ParameterObject = With<oa.ParameterObject, { schema?: SchemaObject }>;
type MediaTypeObject = With<oa.MediaTypeObject, { schema?: SchemaObject; examples?: Record<string, { summary?: string; value: unknown }> }>;
/** `x-status-codes`: the service status codes a response can carry, in numeric order. */
export type ResponseObject = With<oa.ResponseObject, { content?: Record<string, MediaTypeObject>; 'x-status-codes'?: number[] }>;
export type OperationObject = With<
  oa.OperationObject,
  {
    parameters?: (ParameterObject | oa.ReferenceObject)[];
    requestBody?: With<oa.RequestBodyObject, { content: Record<string, MediaTypeObject> }>;
    responses: Record<string, ResponseObject>;
  }
> & { [extension: string]: unknown };

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type PathItemObject = Partial<Record<(typeof HTTP_METHODS)[number], OperationObject>>;
export type StatusCodeEntry = { code: number; http: number; description: string };

export type OpenApiDocument = With<
  oa.OpenAPIObject,
  {
    paths: Record<string, PathItemObject>;
    components: {
      schemas: Record<string, SchemaObject>;
      securitySchemes: Record<string, oa.SecuritySchemeObject>;
      headers: Record<string, oa.HeaderObject>;
      parameters: Record<string, ParameterObject>;
    };
    'x-webhooks'?: Record<string, PathItemObject>;
    'x-status-codes': StatusCodeEntry[];
  }
>;
