// The TypeScript client of the bot API: typed from the contract itself, no code generation.
// client/README.md shows it in use; examples/bot is a whole bot built on it.

export { BotApiError, type BotClient, type BotClientOptions, createBotClient, responseOf } from './bot-client';
export { type EventStreamOptions, type PulledEvent, verifyPulledEvent } from './pulled-events';
export { type ReplyEventSource, type ReplyEventStreamOptions, sendReplyStream } from './reply-event-stream';
export { type StreamReplyOptions, streamReply } from './stream-reply';
export {
  type ChatAssignedEvent,
  type ChatClosedEvent,
  type ChatUnassignedEvent,
  type EventMessageEntry,
  type MessageReceivedEvent,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
} from './webhooks';
