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
  return view;
}
