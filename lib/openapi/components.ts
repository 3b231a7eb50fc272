import type { z } from 'zod';
import { adminAccountSchema, createAccountBodySchema } from '@/contracts/schemas/admin-account';
import { adminAssetSchema, createAssetBodySchema } from '@/contracts/schemas/admin-asset';
import { adminChatDetailSchema, adminEventSchema, adminMessageBodySchema, deliveryAttemptSchema } from '@/contracts/schemas/admin-chat';
import {
  deliveryStatsSchema,
  recoverySchema,
  startRecoverySchema,
  startTestChatSchema,
  testChatSchema,
  testEventResultSchema,
  virtualAgentHealthSchema,
} from '@/contracts/schemas/admin-delivery';
import {
  adminRoutingRuleSchema,
  createRoutingRuleBodySchema,
  defaultTeamBodySchema,
  defaultTeamSchema,
  updateRoutingRuleBodySchema,
} from '@/contracts/schemas/admin-routing';
import { adminProfileSchema, loginBodySchema } from '@/contracts/schemas/admin-session';
import {
  adminSkillSchema,
  adminTeamSchema,
  createSkillBodySchema,
  createTeamBodySchema,
  updateTeamBodySchema,
} from '@/contracts/schemas/admin-team';
import { adminUserSchema, createUserBodySchema, updateUserBodySchema } from '@/contracts/schemas/admin-user';
import {
  adminVirtualAgentSchema,
  createdVirtualAgentSchema,
  createVirtualAgentBodySchema,
  rotatedApiKeySchema,
  rotatedSigningSecretSchema,
  updateVirtualAgentBodySchema,
} from '@/contracts/schemas/admin-virtual-agent';
import { accessTokenSchema, authorizeBodySchema } from '@/contracts/schemas/auth';
import {
  assetSchema,
  chatPageSchema,
  chatSchema,
  createChatBodySchema,
  customerSchema,
  transferBodySchema,
  updateChatBodySchema,
} from '@/contracts/schemas/chat';
import { errorEnvelopeSchema, fieldErrorSchema } from '@/contracts/schemas/common';
import { eventSchemas } from '@/contracts/schemas/events';
import {
  attachmentSchema,
  chunkInputSchema,
  closeStreamInputSchema,
  messageInputSchema,
  messagePageSchema,
  messageSchema,
  quickRepliesSchema,
  quickReplyResponseSchema,
  typingInputSchema,
  typingStateSchema,
} from '@/contracts/schemas/message';
import {
  ackBodySchema,
  ackResultSchema,
  cursorExpiredEnvelopeSchema,
  eventPageSchema,
  pulledEventSchema,
} from '@/contracts/schemas/pulled-event';
import { teamSchema } from '@/contracts/schemas/team';
import {
  startWidgetChatBodySchema,
  widgetAppSchema,
  widgetChatSchema,
  widgetChunkSchema,
  widgetMessageBodySchema,
  widgetMessagePageSchema,
  widgetMessageSchema,
  widgetTypingSchema,
  widgetVisitorSchema,
} from '@/contracts/schemas/widget';
import { referenceComponents, toJsonSchema, toOpenApiSchema } from './schema-tools';
import type { SchemaObject } from './types';

/**
 * Shapes the document names once and refers to. Wherever a route's schema contains exactly one of
 * these, the document says `$ref` instead of repeating it; a client generator turns each into a type.
 */
const SHARED: Record<string, z.ZodTypeAny> = {
  ErrorEnvelope: errorEnvelopeSchema,
  FieldError: fieldErrorSchema,
  Chat: chatSchema,
  Asset: assetSchema,
  Customer: customerSchema,
  Message: messageSchema,
  MessageInput: messageInputSchema,
  Attachment: attachmentSchema,
  QuickReplies: quickRepliesSchema,
  QuickReplyResponse: quickReplyResponseSchema,
  Team: teamSchema,
  CreateChatBody: createChatBodySchema,
  UpdateChatBody: updateChatBodySchema,
  TransferBody: transferBodySchema,
  AuthorizeBody: authorizeBodySchema,
  AccessToken: accessTokenSchema,
  ChatPage: chatPageSchema,
  MessagePage: messagePageSchema,
  PulledEvent: pulledEventSchema,
  EventPage: eventPageSchema,
  AckEventsBody: ackBodySchema,
  AckResult: ackResultSchema,
  CursorExpiredEnvelope: cursorExpiredEnvelopeSchema,
  ChunkInput: chunkInputSchema,
  CloseStreamInput: closeStreamInputSchema,
  TypingInput: typingInputSchema,
  TypingState: typingStateSchema,
  // Widget API
  WidgetApp: widgetAppSchema,
  WidgetVisitor: widgetVisitorSchema,
  WidgetChat: widgetChatSchema,
  WidgetMessage: widgetMessageSchema,
  WidgetMessagePage: widgetMessagePageSchema,
  StartWidgetChatBody: startWidgetChatBodySchema,
  WidgetMessageBody: widgetMessageBodySchema,
  WidgetTyping: widgetTypingSchema,
  WidgetChunk: widgetChunkSchema,
  // Admin API
  AdminLoginBody: loginBodySchema,
  AdminProfile: adminProfileSchema,
  AdminAccount: adminAccountSchema,
  CreateAccountBody: createAccountBodySchema,
  AdminTeam: adminTeamSchema,
  AdminSkill: adminSkillSchema,
  CreateTeamBody: createTeamBodySchema,
  UpdateTeamBody: updateTeamBodySchema,
  CreateSkillBody: createSkillBodySchema,
  AdminUser: adminUserSchema,
  CreateUserBody: createUserBodySchema,
  UpdateUserBody: updateUserBodySchema,
  AdminVirtualAgent: adminVirtualAgentSchema,
  CreatedVirtualAgent: createdVirtualAgentSchema,
  CreateVirtualAgentBody: createVirtualAgentBodySchema,
  UpdateVirtualAgentBody: updateVirtualAgentBodySchema,
  RotatedApiKey: rotatedApiKeySchema,
  RotatedSigningSecret: rotatedSigningSecretSchema,
  AdminAsset: adminAssetSchema,
  CreateAssetBody: createAssetBodySchema,
  AdminRoutingRule: adminRoutingRuleSchema,
  CreateRoutingRuleBody: createRoutingRuleBodySchema,
  UpdateRoutingRuleBody: updateRoutingRuleBodySchema,
  DefaultTeam: defaultTeamSchema,
  DefaultTeamBody: defaultTeamBodySchema,
  AdminChatDetail: adminChatDetailSchema,
  AdminEvent: adminEventSchema,
  DeliveryAttempt: deliveryAttemptSchema,
  AdminMessageBody: adminMessageBodySchema,
  DeliveryStats: deliveryStatsSchema,
  VirtualAgentHealth: virtualAgentHealthSchema,
  TestEventResult: testEventResultSchema,
  StartTestChatBody: startTestChatSchema,
  TestChat: testChatSchema,
  Recovery: recoverySchema,
  StartRecoveryBody: startRecoverySchema,
};

/** Event bodies sent to the VA's webhook, self-contained so each can be used on its own. */
export const EVENT_COMPONENTS = eventSchemas;
export type EventComponentName = keyof typeof EVENT_COMPONENTS;

/** The event type each event component describes (`chat.assigned` ...). */
export function eventTypeOf(name: EventComponentName): string {
  return EVENT_COMPONENTS[name].shape.event_type.value;
}

/**
 * The shared shapes: `plain` as the converter emits them (what route schemas are matched
 * against), `defined` as the document lists them (with their own parts as `$ref`s).
 */
export function sharedComponents(): { plain: Record<string, SchemaObject>; defined: Record<string, SchemaObject> } {
  const plain = Object.fromEntries(Object.entries(SHARED).map(([name, schema]) => [name, toOpenApiSchema(schema)]));
  const defined = Object.fromEntries(Object.entries(plain).map(([name, schema]) => [name, referenceComponents(schema, plain, name)]));
  return { plain, defined };
}

export function eventComponents(): Record<EventComponentName, SchemaObject> {
  const out = {} as Record<EventComponentName, SchemaObject>;
  for (const name of Object.keys(EVENT_COMPONENTS) as EventComponentName[]) {
    out[name] = { title: name, ...toOpenApiSchema(EVENT_COMPONENTS[name]) };
  }
  return out;
}

/**
 * Every webhook body as one schema, `oneOf` the event components with `event_type` as the
 * discriminator, so a generated client gets a tagged union to switch on.
 */
export function webhookEventUnion(): SchemaObject {
  const names = Object.keys(EVENT_COMPONENTS) as EventComponentName[];
  return {
    title: 'WebhookEvent',
    description: 'The body of any request the service sends to a VA webhook; `event_type` tells which.',
    oneOf: names.map((name) => ({ $ref: `#/components/schemas/${name}` })),
    discriminator: {
      propertyName: 'event_type',
      mapping: Object.fromEntries(names.map((name) => [eventTypeOf(name), `#/components/schemas/${name}`])),
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
  const name = (Object.keys(EVENT_COMPONENTS) as EventComponentName[]).find((n) => eventTypeOf(n) === eventType);
  if (!name) return null;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${eventSchemaPath(eventType)}`,
    ...toJsonSchema(eventComponents()[name]),
  };
}
