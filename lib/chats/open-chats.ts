import { inArray } from 'drizzle-orm';
import { CHAT_STATUSES } from '@/contracts/enums';
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
