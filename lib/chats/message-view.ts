import type { Message } from '@/contracts/bot/schemas/message';
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
    ...(row.body as Omit<Message, 'transid' | 'type' | 'author' | 'timestamp'>),
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
