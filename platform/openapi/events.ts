import { eventSchemas } from '@/contracts/bot/schemas/events';
import { metaOf, toJsonSchema, toOpenApiSchema } from './schema-tools';
import type { SchemaObject } from './types';

/** Event bodies sent to the VA's webhook, self-contained so each can be used on its own. */
export const EVENT_COMPONENTS = eventSchemas;
export type EventComponentName = keyof typeof EVENT_COMPONENTS;
export const EVENT_NAMES = Object.keys(EVENT_COMPONENTS) as EventComponentName[];
/** Each event body's example (given on its schema), by component name: the webhooks' and the guide's. */
export const EVENT_EXAMPLES: Record<string, unknown> = Object.fromEntries(EVENT_NAMES.map((n) => [n, metaOf(EVENT_COMPONENTS[n]).example]));

/** The event type each event component describes (`chat.assigned` ...). */
export const eventTypeOf = (name: EventComponentName): string => EVENT_COMPONENTS[name].shape.event_type.value;

export function eventComponents(): Record<string, SchemaObject> {
  return Object.fromEntries(EVENT_NAMES.map((name) => [name, { title: name, ...toOpenApiSchema(EVENT_COMPONENTS[name]) }]));
}

/**
 * Every webhook body as one schema, `oneOf` the event components with `event_type` as the
 * discriminator, so a generated client gets a tagged union to switch on.
 */
export function webhookEventUnion(): SchemaObject {
  return {
    title: 'WebhookEvent',
    description: 'The body of any request the service sends to a VA webhook; `event_type` tells which.',
    oneOf: EVENT_NAMES.map((name) => ({ $ref: `#/components/schemas/${name}` })),
    discriminator: {
      propertyName: 'event_type',
      mapping: Object.fromEntries(EVENT_NAMES.map((name) => [eventTypeOf(name), `#/components/schemas/${name}`])),
    },
  };
}

export const EVENT_SCHEMAS_PATH = '/api/v1/schemas/events.json';
export const eventSchemaPath = (eventType: string) => `/api/v1/schemas/events/${eventType}.json`;

/**
 * The event bodies as JSON Schema (draft 2020-12), served at EVENT_SCHEMAS_PATH: one document with
 * each event under `$defs` and a `oneOf` over them, discriminated by `event_type`.
 * `baseUrl` (the origin serving them) makes the `$id`s absolute.
 */
export function eventJsonSchemas(baseUrl = '') {
  const defs = Object.fromEntries(Object.entries(eventComponents()).map(([name, schema]) => [name, toJsonSchema(schema)]));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${EVENT_SCHEMAS_PATH}`,
    title: 'VA Chat webhook events',
    description: 'The body of every request the service sends to a Virtual Agent webhook, by `event_type`.',
    oneOf: Object.keys(defs).map((name) => ({ $ref: `#/$defs/${name}` })),
    $defs: defs,
  };
}

/** One event body as a standalone JSON Schema document, or null for an unknown event type. */
export function eventJsonSchema(eventType: string, baseUrl = ''): Record<string, unknown> | null {
  const name = EVENT_NAMES.find((n) => eventTypeOf(n) === eventType);
  if (!name) return null;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${eventSchemaPath(eventType)}`,
    ...toJsonSchema(eventComponents()[name]),
  };
}
