import type { Channel, EventType } from '@/contracts/enums';
import type { Message } from '@/contracts/schemas/message';

export type EventMessageEntry = {
  transid: string;
  type: string;
  text: string;
  attachments: { type: string; url: string }[];
  timestamp: string;
  interactive_response: { title: string; postback: string } | null;
  wab_interactive_response?: { identifier: string; title: string };
};

/** Turns a stored message into the spec's message entry of an event. */
export function toEventEntry(m: Message): EventMessageEntry {
  const interactive = interactiveOf(m);
  return {
    transid: m.transid,
    type: interactive ? 'interactive' : 'text',
    text: m.text ?? '',
    attachments: m.attachment ? [m.attachment] : [],
    timestamp: m.timestamp,
    interactive_response: interactive,
  };
}

function interactiveOf(m: Message): EventMessageEntry['interactive_response'] {
  if (m.quick_reply_response) {
    return {
      title: m.quick_reply_response.options.map((o) => o.title).join(', '),
      postback: m.quick_reply_response.request_identifier,
    };
  }
  if (m.list_picker_response) return { title: m.list_picker_response.join(', '), postback: 'listpicker' };
  if (m.time_picker_response) return { title: m.time_picker_response, postback: 'timepicker' };
  return null;
}

export type EventChat = {
  id: string;
  channel: Channel;
  assetId: number;
  destinationId: string;
  threadId: string | null;
  browserFingerprint: string | null;
  subject: string | null;
  skill: string | null;
};

/**
 * The spec's event envelope without `posted_on`, which each delivery attempt stamps.
 * `thread_id` and `browserfingerprint` appear on livechat only; `subject` is "" outside email.
 */
export function buildEventBody(
  type: EventType,
  chat: EventChat,
  transactionId: string,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    event_type: type,
    channel: chat.channel,
    chat_id: chat.id,
    asset: String(chat.assetId),
    destination_id: chat.destinationId,
  };
  if (chat.channel === 'livechat') {
    body.thread_id = chat.threadId ?? '';
    body.browserfingerprint = chat.browserFingerprint ?? '';
  }
  body.subject = chat.channel === 'email' ? (chat.subject ?? '') : '';
  body.payload = payload;
  body.transaction_id = transactionId;
  return body;
}
