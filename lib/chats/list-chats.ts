import { and, arrayContains, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Channel, ChatStatus } from '@/contracts/enums';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats, users } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/lib/util/cursor';
import { chatListWith, toChatView } from './chat-view';

export type ChatFilters = {
  status?: ChatStatus;
  channel?: Channel;
  assignee?: string;
  tag?: string;
  teamId?: number;
  updatedSince?: string;
  pageSize?: number;
  cursor?: string;
};

/**
 * The account's chats, most recently updated first, with keyset pagination on (updated_at, id).
 * `also` narrows the list further (the admin search adds its text match there).
 */
export async function listChats(
  db: Db,
  { accountId, filters, also }: { accountId: number; filters: ChatFilters; also?: SQL },
): Promise<{ chats: Chat[]; nextCursor: string | null }> {
  const pageSize = filters.pageSize ?? 25;
  const where: SQL[] = [eq(chats.accountId, accountId)];
  if (also) where.push(also);
  if (filters.status) where.push(eq(chats.status, filters.status));
  if (filters.channel) where.push(eq(chats.channel, filters.channel));
  if (filters.teamId) where.push(eq(chats.teamId, filters.teamId));
  if (filters.tag) where.push(arrayContains(chats.tags, [filters.tag]));
  if (filters.updatedSince) where.push(gte(chats.updatedAt, new Date(filters.updatedSince)));
  if (filters.assignee) {
    const assignee = db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.loginId, filters.assignee)));
    where.push(inArray(chats.assigneeId, assignee));
  }
  if (filters.cursor) {
    const [at, id] = decodeCursor(filters.cursor, (p): p is [string, string] => p.length === 2 && p.every((x) => typeof x === 'string'));
    const atDate = new Date(at);
    where.push(or(lt(chats.updatedAt, atDate), and(eq(chats.updatedAt, atDate), lt(chats.id, id)))!);
  }
  const rows = await db.query.chats.findMany({
    where: and(...where),
    orderBy: [desc(chats.updatedAt), desc(chats.id)],
    limit: pageSize + 1,
    with: chatListWith,
  });
  const page = rows.slice(0, pageSize).map(toChatView);
  const last = page.at(-1);
  return { chats: page, nextCursor: rows.length > pageSize && last ? encodeCursor([last.updated_at, last.chat_id]) : null };
}
