import { and, type Column, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { CHAT_STATUSES } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';

/** Every status but `closed`: a chat in one of them holds its assignee's seat. */
const OPEN_STATUSES = CHAT_STATUSES.filter((s) => s !== 'closed');

/**
 * A chat that is not closed, written as the open statuses rather than `status <> 'closed'`: beside
 * an assignee, that is a range of the (assignee_id, status, …) index, so counting or listing what a
 * person or a VA holds reads their open chats only. With `<>` PostgreSQL read every chat the
 * assignee ever held and dropped the closed ones (a busy VA's history grows by the day), inside
 * auto-assign's lock on the VA, which every new chat of its team waits for.
 */
export const isOpenChat = inArray(chats.status, OPEN_STATUSES);

/** The chats each of `userIds` holds open, for those who hold any: read from their open range of the assignee index. */
export function openChatLoads(db: Db, userIds: number[]) {
  return db
    .select({ id: chats.assigneeId, load: sql<number>`count(*)::int` })
    .from(chats)
    .where(and(inArray(chats.assigneeId, userIds), isOpenChat))
    .groupBy(chats.assigneeId);
}

/** The chats `userId` holds open (its seats taken), in a statement of its own. */
export async function openChatLoad(db: Db, userId: number): Promise<number> {
  const [row] = await openChatLoads(db, [userId]);
  return row?.load ?? 0;
}

/** The chats the user in `userId` (a column of the outer query) holds open, as a correlated subquery: the same range of the assignee index. */
export function openChatCountOf(db: Db, userId: Column): SQL<number> {
  return sql<number>`(${db
    .select({ n: sql`count(*)::int` })
    .from(chats)
    .where(and(eq(chats.assigneeId, userId), isOpenChat))})`;
}
