import { type Message, messageSchema } from '@/contracts/bot/schemas/message';
import type { MessageType, StreamState } from '@/contracts/enums';

export type MessageRow = {
  transid: string;
  type: MessageType;
  body: Record<string, unknown>;
  authorLoginId: string | null;
  sentAt: Date | string;
  /** Streamed replies only (null or absent for every other message). */
  streamState?: StreamState | null;
  streamSeq?: number | null;
  /** Turns (lib/turns): an inbound message's turn, an outbound reply's `in_reply_to_turn` and stale mark. */
  turnId?: string | null;
  stale?: boolean | null;
};

export function toMessageView(row: MessageRow): Message {
  const sentAt = row.sentAt instanceof Date ? row.sentAt : new Date(row.sentAt);
  const view: Message = {
    transid: row.transid,
    type: row.type,
    ...(wellFormedBody(row.body) as Omit<Message, 'transid' | 'type' | 'author' | 'timestamp'>),
    author: row.authorLoginId,
    timestamp: sentAt.toISOString(),
  };
  if (row.streamState) {
    view.stream_state = row.streamState;
    view.stream_seq = row.streamSeq ?? 0;
  }
  if (row.turnId) {
    if (row.type === 'inbound') view.turn_id = row.turnId;
    else {
      view.in_reply_to_turn = row.turnId;
      view.stale = row.stale ?? false;
    }
  }
  return view;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The parts the pages read, each checked against its schema in the contract's message. */
const READ_PARTS = (['attachment', 'quick_replies', 'quick_reply_response'] as const).map(
  (key) => [key, messageSchema.shape[key]] as const,
);

/**
 * A stored body as every view gives it (the APIs, and through them the console, the workspace and
 * the widget). Rows are written through the contract, but one written before a rule existed, by
 * hand or by a bug must neither take a page down nor leave the contract: the parts the pages read
 * (the text, the attachment, the quick replies and their answer) are given only in the contract's
 * shape, and left out otherwise; the rest passes as stored. A well-formed body is returned as it is.
 */
export function wellFormedBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) return {};
  const odd: string[] = [];
  if (body.text !== undefined && typeof body.text !== 'string') odd.push('text');
  for (const [key, schema] of READ_PARTS) if (body[key] !== undefined && !schema.safeParse(body[key]).success) odd.push(key);
  if (!odd.length) return body;
  const kept = { ...body };
  for (const key of odd) delete kept[key];
  return kept;
}
