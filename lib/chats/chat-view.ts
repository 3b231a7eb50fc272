import { and, desc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { Chat } from '@/contracts/schemas/chat';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { type MessageRow, toMessageView } from '@/lib/messages/message-view';
import { logger } from '@/lib/util/logger';
import { prepared } from '@/lib/util/prepared';

export const CHAT_READ_MESSAGES = 20;

const chatWith = (messageLimit: number) =>
  ({
    team: { columns: { name: true } },
    asset: { columns: { id: true, name: true, address: true } },
    customer: { columns: { id: true, destinationId: true, name: true } },
    assignee: { columns: { loginId: true } },
    messages: {
      columns: { transid: true, type: true, body: true, authorLoginId: true, sentAt: true },
      orderBy: desc(messages.id),
      limit: messageLimit,
    },
  }) as const;

const readChat = prepared('chat_view', (db: Db) =>
  db.query.chats.findFirst({
    where: and(eq(chats.id, sql.placeholder('chatId')), eq(chats.accountId, sql.placeholder('accountId'))),
    with: chatWith(CHAT_READ_MESSAGES),
  }),
);

type ChatRow = NonNullable<Awaited<ReturnType<ReturnType<typeof readChat>['execute']>>>;

/** One round trip for the chat with its team, asset, customer, assignee and latest messages. */
export async function loadChat(db: Db, { accountId, chatId }: { accountId: number; chatId: string }): Promise<Chat | null> {
  const row = await readChat(db).execute({ chatId, accountId });
  return row ? toChatView(row) : null;
}

/**
 * Reads a chat for an answer. A failure here (after any change committed) is the spec's 4108,
 * "Unable to get the chat details", rather than a generic 2007.
 */
export async function loadChatOrFail(db: Db, where: { accountId: number; chatId: string }): Promise<Chat> {
  let chat: Chat | null;
  try {
    chat = await loadChat(db, where);
  } catch (err) {
    logger.error('chat read failed', { chatId: where.chatId, err });
    throw new ApiError(4108);
  }
  if (!chat) throw new ApiError(2031);
  return chat;
}

export const chatListWith = chatWith(1);

/**
 * The latest messages of a chat as one JSON value, newest first, shaped as the relational read's
 * `messages`, for statements that answer the chat view themselves.
 */
export function latestMessagesJson(chatId: SQLWrapper) {
  return sql<MessageRow[]>`(
    select coalesce(json_agg(json_build_object(
      'transid', m.transid, 'type', m.type, 'body', m.body, 'authorLoginId', m.author_login_id, 'sentAt', m.sent_at
    ) order by m.id desc), '[]'::json)
    from (
      select ${messages.id} as id, ${messages.transid} as transid, ${messages.type} as type, ${messages.body} as body,
        ${messages.authorLoginId} as author_login_id, ${messages.sentAt} as sent_at
      from ${messages} where ${messages.chatId} = ${chatId} order by ${messages.id} desc limit ${sql.raw(String(CHAT_READ_MESSAGES))}
    ) m)`;
}

/**
 * What the view needs of a chat row: the relational read's, or the same fields as JSON from a
 * statement that answers the chat itself (timestamps then arrive as ISO strings).
 */
export type ChatViewRow = Pick<
  ChatRow,
  | 'id'
  | 'aliasId'
  | 'teamId'
  | 'team'
  | 'skill'
  | 'status'
  | 'channel'
  | 'subject'
  | 'threadId'
  | 'browserFingerprint'
  | 'asset'
  | 'customer'
  | 'assignee'
  | 'flag'
  | 'tags'
  | 'otherDetails'
  | 'outcome'
> & { createdAt: Date | string; updatedAt: Date | string; messages: MessageRow[] };

export function toChatView(row: ChatViewRow): Chat {
  return {
    chat_id: row.id,
    alias_id: row.aliasId,
    team_id: row.teamId,
    team_name: row.team.name,
    skill: row.skill,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    status: row.status,
    channel: row.channel,
    subject: row.subject,
    thread_id: row.threadId,
    browserfingerprint: row.browserFingerprint,
    asset: { id: row.asset.id, name: row.asset.name, address: row.asset.address },
    customer: { id: row.customer.id, destination_id: row.customer.destinationId, name: row.customer.name },
    messages: row.messages.map(toMessageView).reverse(),
    assignee: row.assignee?.loginId ?? null,
    flag: row.flag,
    tag: row.tags,
    other_details: row.otherDetails as Chat['other_details'],
    outcome: row.outcome,
  };
}

function iso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}
