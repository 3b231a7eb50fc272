import type { MessageType } from '@/contracts/enums';
import type { Message } from '@/contracts/schemas/message';

export type MessageRow = {
  transid: string;
  type: MessageType;
  body: Record<string, unknown>;
  authorLoginId: string | null;
  sentAt: Date | string;
};

export function toMessageView(row: MessageRow): Message {
  const sentAt = row.sentAt instanceof Date ? row.sentAt : new Date(row.sentAt);
  return {
    transid: row.transid,
    type: row.type,
    ...(row.body as Omit<Message, 'transid' | 'type' | 'author' | 'timestamp'>),
    author: row.authorLoginId,
    timestamp: sentAt.toISOString(),
  };
}
