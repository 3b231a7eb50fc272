/**
 * The request body of one attempt: the stored event plus `posted_on`, in the spec's key order.
 * The outbox keeps the body as jsonb, which sorts keys its own way, so the order is rebuilt here.
 */
const ENVELOPE_KEYS = [
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
  'payload',
  'transaction_id',
];
const PAYLOAD_KEYS: Record<string, readonly string[]> = {
  'chat.assigned': ['skill', 'messages'],
  'message.received': ['messages'],
  'chat.closed': ['timestamp', 'chat_outcome'],
  'chat.unassigned': ['timestamp', 'reason', 'team_id', 'assignee'],
};
const MESSAGE_KEYS = ['transid', 'type', 'text', 'attachments', 'timestamp', 'interactive_response', 'wab_interactive_response'];

export function serializeEvent(body: Record<string, unknown>, postedOn: Date): string {
  const withPostedOn = { ...body, posted_on: postedOn.toISOString() };
  const ordered = inOrder(withPostedOn, ENVELOPE_KEYS);
  const payload = ordered.payload;
  if (isRecord(payload)) {
    const p = inOrder(payload, PAYLOAD_KEYS[String(body.event_type)] ?? []);
    if (Array.isArray(p.messages)) p.messages = p.messages.map((m) => (isRecord(m) ? inOrder(m, MESSAGE_KEYS) : m));
    ordered.payload = p;
  }
  return JSON.stringify(ordered);
}

/** Known keys first in the given order, then any others as they come. */
function inOrder(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!(k in out)) out[k] = v;
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
