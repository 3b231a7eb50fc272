import type { Message } from '@/contracts/bot/schemas/message';
import type { Channel, EventType } from '@/contracts/enums';

export type EventMessageEntry = {
  transid: string;
  type: 'text' | 'interactive';
  text: string;
  attachments: { type: string; url: string }[];
  timestamp: string;
  interactive_response: { title: string; postback: string } | null;
  wab_interactive_response?: { identifier: string; title: string };
  message: Message;
};

/**
 * Turns a stored message into the spec's message entry of an event. `transid` is the trace of the
 * request streamed (the event's `transaction_id`); the message's own trace stays in
 * `message.transid`. The spec's flat fields summarise the message; `message` is the message object
 * as accepted and as the transcript returns it, so nothing the customer sent is lost.
 */
export function toEventEntry(m: Message, transactionId: string): EventMessageEntry {
  const interactive = interactiveOf(m);
  return {
    transid: transactionId,
    type: interactive ? 'interactive' : 'text',
    text: m.text ?? '',
    attachments: m.attachment ? [m.attachment] : [],
    timestamp: m.timestamp,
    interactive_response: interactive,
    ...(m.wab_interactive_response && { wab_interactive_response: m.wab_interactive_response }),
    message: m,
  };
}

/**
 * The first (usually only) choice of an interactive answer as `{title, postback}`; `postback` is
 * the value chosen: a quick reply's payload (its title when the offer is unknown), the list item's
 * title, the slot start in UTC, or the template button's identifier. Every choice is in the
 * entry's `message`.
 */
function interactiveOf(m: Message): EventMessageEntry['interactive_response'] {
  const quick = m.quick_reply_response?.options[0];
  if (quick) return { title: quick.title, postback: quick.payload ?? quick.title };
  const first = m.list_picker_response?.[0];
  if (first !== undefined) return { title: first, postback: first };
  if (m.time_picker_response) return { title: m.time_picker_response, postback: m.time_picker_response };
  if (m.wab_interactive_response) return { title: m.wab_interactive_response.title, postback: m.wab_interactive_response.identifier };
  return null;
}

export type EventChat = {
  id: string;
  channel: Channel;
  assetId: number;
  /** The chat's team (the `team_id` header of the bot's next PATCH). */
  teamId: number;
  /** The asset's channel address (long code, page ID, email address...); enqueueEvent reads it. */
  assetAddress?: string | null;
  destinationId: string;
  threadId: string | null;
  browserFingerprint: string | null;
  subject: string | null;
  skill: string | null;
  /** The replay run that made the chat (a sandbox chat, lib/replay); its events carry `replay`. */
  replayRunId?: string | null;
};

/**
 * The spec's event envelope without `posted_on`, which each delivery attempt stamps.
 * `thread_id` and `browserfingerprint` appear on livechat only; `subject` is "" outside email.
 * `asset_address` (ours) is the asset's address on its channel beside the spec's `asset` id, null
 * when the asset was registered without one. `team_id` (ours) is the chat's team when the event
 * was written, the value of the `team_id` header that `PATCH /chats/{chat_id}` needs.
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
    asset_address: chat.assetAddress ?? null,
    destination_id: chat.destinationId,
    team_id: chat.teamId,
  };
  if (chat.channel === 'livechat') {
    body.thread_id = chat.threadId ?? '';
    body.browserfingerprint = chat.browserFingerprint ?? '';
  }
  body.subject = chat.channel === 'email' ? (chat.subject ?? '') : '';
  body.payload = payload;
  body.transaction_id = transactionId;
  // Only a replay's events carry it, so a bot can stub its own tools (docs/guide/replay.md).
  if (chat.replayRunId) body.replay = { run_id: chat.replayRunId };
  return body;
}
