export const CHANNELS = ['sms', 'social1', 'social2', 'livechat', 'email', 'abc', 'messenger', 'api'] as const;
export const CHAT_STATUSES = ['queued', 'picked', 'onhold', 'closed'] as const;
export const MESSAGE_TYPES = ['inbound', 'outbound', 'announcement'] as const;
export const USER_KINDS = ['agent', 'manager', 'virtual_agent'] as const;
export const AVAILABILITIES = ['available', 'unavailable'] as const;
export const EVENT_TYPES = [
  'chat.assigned',
  'message.received',
  'chat.closed',
  'chat.unassigned',
  'approval.decided',
  'approval.expired',
  'handover.requested',
] as const;
export const EVENT_STATUSES = ['pending', 'delivered', 'failed', 'superseded'] as const;
export const ATTACHMENT_TYPES = ['image', 'audio', 'video', 'file'] as const;

export type Channel = (typeof CHANNELS)[number];
export type ChatStatus = (typeof CHAT_STATUSES)[number];
export type MessageType = (typeof MESSAGE_TYPES)[number];
export type UserKind = (typeof USER_KINDS)[number];
export type EventType = (typeof EVENT_TYPES)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** States of a streamed reply (see the messages contract). */
export const STREAM_STATES = ['open', 'closed', 'cut_short', 'superseded'] as const;
export type StreamState = (typeof STREAM_STATES)[number];

/** What happens when a VA's reply budget runs out. */
export const REPLY_TIMEOUT_ACTIONS = ['handover', 'notify'] as const;
export type ReplyTimeoutAction = (typeof REPLY_TIMEOUT_ACTIONS)[number];
