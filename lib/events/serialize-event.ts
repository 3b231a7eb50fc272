import type { EventType } from '@/contracts/enums';

/**
 * The request body of one attempt: the stored event plus `posted_on`, with its keys in the order
 * the specification's tables list them. The outbox keeps the body as jsonb, which sorts keys its
 * own way, so the order is rebuilt here from one explicit list per shape. Our own fields sit next
 * to the field they explain: `asset_address` after `asset`, `team_id` after `destination_id`,
 * `message` (the message as accepted) last in an entry, `author` and `wab_interactive_response`
 * in the message object beside their kin, `stream_state` and `stream_seq` (a streamed reply) after
 * `text`.
 *
 * A test checks that each list names exactly the fields of its schema, so no key falls outside
 * them; should one ever do (a body stored before a field was renamed), it follows the listed keys
 * rather than being dropped.
 */

/** Envelope fields before `payload`, as the envelope table lists them (livechat-only ones are skipped when absent). */
const ENVELOPE_HEAD = [
  'event_type',
  'channel',
  'chat_id',
  'asset',
  'asset_address',
  'destination_id',
  'team_id',
  'thread_id',
  'browserfingerprint',
  'subject',
  'posted_on',
] as const;
/** `replay` (ours, only on a replay's events) last: the spec's fields come first. */
const ENVELOPE_TAIL = ['payload', 'transaction_id', 'replay'] as const;

/** Each event type's body and payload keys. */
export const EVENT_KEY_ORDER: Record<EventType, { body: readonly string[]; payload: readonly string[] }> = {
  'chat.assigned': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['skill', 'messages', 'transcript', 'handback'] },
  'message.received': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['messages', 'turn_id', 'supersedes_turn'] },
  'chat.closed': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['timestamp', 'chat_outcome'] },
  'chat.unassigned': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['timestamp', 'reason', 'team_id', 'assignee', 'handover'] },
  'approval.decided': {
    body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL],
    payload: ['approval_id', 'action', 'decision', 'comment', 'details', 'decided_by', 'decided_at'],
  },
  'approval.expired': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['approval_id', 'action', 'expired_at'] },
  'handover.requested': { body: [...ENVELOPE_HEAD, ...ENVELOPE_TAIL], payload: ['requested_at', 'source'] },
};

/** A message entry of `payload.messages`: the spec's entry table, then `message`. */
export const ENTRY_KEY_ORDER = [
  'transid',
  'type',
  'text',
  'attachments',
  'timestamp',
  'interactive_response',
  'wab_interactive_response',
  'message',
] as const;

/** The message object inside an entry: `transid` first, then the message table's order. */
export const MESSAGE_KEY_ORDER = [
  'transid',
  'type',
  'abc_sub_type',
  'livechat_sub_type',
  'messenger_sub_type',
  'list_picker_response',
  'time_picker_response',
  'template_name',
  'text',
  'stream_state',
  'stream_seq',
  'turn_id',
  'in_reply_to_turn',
  'stale',
  'attachment',
  'quick_replies',
  'quick_reply_response',
  'wab_interactive_response',
  'author',
  'timestamp',
] as const;

/** Key orders of the nested objects of a message, keyed by the field that holds them. */
const NESTED_KEY_ORDER: Record<string, readonly string[]> = {
  attachment: ['type', 'url'],
  quick_replies: ['request_identifier', 'options'],
  quick_reply_response: ['request_identifier', 'options'],
  wab_interactive_response: ['identifier', 'title'],
  interactive_response: ['title', 'postback'],
};
const OPTION_KEY_ORDER = ['title', 'payload'];

export function serializeEvent(body: Record<string, unknown>, postedOn: Date): string {
  const order = EVENT_KEY_ORDER[body.event_type as EventType];
  const ordered = inOrder({ ...body, posted_on: postedOn.toISOString() }, order?.body ?? []);
  if (isRecord(ordered.payload)) {
    const payload = inOrder(ordered.payload, order?.payload ?? []);
    if (Array.isArray(payload.messages)) payload.messages = payload.messages.map((m) => (isRecord(m) ? entryInOrder(m) : m));
    if (Array.isArray(payload.transcript)) payload.transcript = payload.transcript.map((m) => (isRecord(m) ? entryInOrder(m) : m));
    ordered.payload = payload;
  }
  return JSON.stringify(ordered);
}

function entryInOrder(entry: Record<string, unknown>): Record<string, unknown> {
  const out = nestedInOrder(inOrder(entry, ENTRY_KEY_ORDER));
  if (isRecord(out.message)) out.message = nestedInOrder(inOrder(out.message, MESSAGE_KEY_ORDER));
  return out;
}

/** Orders the known nested objects (attachment, quick replies and their options...) of an entry or message. */
function nestedInOrder(obj: Record<string, unknown>): Record<string, unknown> {
  for (const [key, keys] of Object.entries(NESTED_KEY_ORDER)) {
    const value = obj[key];
    if (!isRecord(value)) continue;
    const nested = inOrder(value, keys);
    if (Array.isArray(nested.options)) nested.options = nested.options.map((o) => (isRecord(o) ? inOrder(o, OPTION_KEY_ORDER) : o));
    obj[key] = nested;
  }
  if (Array.isArray(obj.attachments)) obj.attachments = obj.attachments.map((a) => (isRecord(a) ? inOrder(a, ['type', 'url']) : a));
  return obj;
}

/** The listed keys first, in the list's order, then any others as they come. */
function inOrder(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!(k in out)) out[k] = v;
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
