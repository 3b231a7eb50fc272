import { and, desc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { WithSubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Chat } from '@/contracts/bot/schemas/chat';
import type { Db } from '@/db/client';
import { assets, chats, customers, messages, teams, users } from '@/db/schema';
import { type MessageRow, toMessageView } from '@/lib/chats/message-view';
import { ApiError } from '@/platform/errors';
import { isDatabaseUnavailable } from '@/platform/util/database-unavailable';
import { logger } from '@/platform/util/logger';
import { prepared } from '@/platform/util/prepared';

const CHAT_READ_MESSAGES = 20;

const chatWith = (messageLimit: number) =>
  ({
    team: { columns: { name: true } },
    asset: { columns: { id: true, name: true, address: true } },
    customer: { columns: { id: true, destinationId: true, name: true } },
    assignee: { columns: { loginId: true } },
    messages: {
      columns: { transid: true, type: true, body: true, authorLoginId: true, sentAt: true, streamState: true, streamSeq: true },
      orderBy: desc(messages.id),
      limit: messageLimit,
    },
  }) as const;

/** Rows of the chats table, as a CTE: the chat read selects them, the tags fast path updates them. */
export type ChatRows = WithSubqueryWithSelection<(typeof chats)['_']['columns'], string>;

/**
 * The chat view, one JSON value per row of `rows`, with its team, asset, customer, assignee and
 * latest messages: the one shape both the chat read and the tags fast path answer (toChatView
 * maps it). Prepare the statement that uses it.
 */
export function selectChatView(db: Db, rows: ChatRows) {
  return db
    .with(rows)
    .select({
      view: sql<ChatViewRow>`json_build_object(
        'id', ${rows.id}, 'aliasId', ${rows.aliasId}, 'teamId', ${rows.teamId}, 'skill', ${rows.skill},
        'createdAt', ${rows.createdAt}, 'updatedAt', ${rows.updatedAt}, 'status', ${rows.status},
        'channel', ${rows.channel}, 'subject', ${rows.subject}, 'threadId', ${rows.threadId},
        'browserFingerprint', ${rows.browserFingerprint}, 'flag', ${rows.flag}, 'tags', ${rows.tags},
        'otherDetails', ${rows.otherDetails}, 'outcome', ${rows.outcome},
        'typingUntil', ${rows.typingUntil}, 'typingStatus', ${rows.typingStatus},
        'team', json_build_object('name', ${teams.name}),
        'asset', json_build_object('id', ${assets.id}, 'name', ${assets.name}, 'address', ${assets.address}),
        'customer', json_build_object('id', ${customers.id}, 'destinationId', ${customers.destinationId}, 'name', ${customers.name}),
        'assignee', case when ${users.id} is null then null else json_build_object('loginId', ${users.loginId}) end,
        'messages', ${latestMessagesJson(rows.id)})`,
    })
    .from(rows)
    .innerJoin(teams, eq(teams.id, rows.teamId))
    .innerJoin(assets, eq(assets.id, rows.assetId))
    .innerJoin(customers, eq(customers.id, rows.customerId))
    .leftJoin(users, eq(users.id, rows.assigneeId));
}

const readChat = prepared('chat_view', (db: Db) =>
  selectChatView(
    db,
    db.$with('chat').as(
      db
        .select()
        .from(chats)
        .where(and(eq(chats.id, sql.placeholder('chatId')), eq(chats.accountId, sql.placeholder('accountId')))),
    ),
  ),
);

/** One round trip for the chat with its team, asset, customer, assignee and latest messages. */
export async function loadChat(db: Db, { accountId, chatId }: { accountId: number; chatId: string }): Promise<Chat | null> {
  const [row] = await readChat(db).execute({ chatId, accountId });
  return row ? toChatView(row.view) : null;
}

/**
 * Reads a chat for an answer. A failure here is the spec's 4108, "Unable to get the chat details",
 * rather than a generic 2007; except, for a plain read (`afterWrite` false), a database that cannot
 * be reached, which is the 503 2050 with Retry-After every other read answers (it was a 500 4108
 * for the moment an outage began, while the guard still passed on cached tokens). After a
 * committed change (`afterWrite`) it stays 4108: the change is done, and a 503 would invite a retry.
 */
export async function loadChatOrFail(
  db: Db,
  where: { accountId: number; chatId: string },
  { afterWrite = false }: { afterWrite?: boolean } = {},
): Promise<Chat> {
  let chat: Chat | null;
  try {
    chat = await loadChat(db, where);
  } catch (err) {
    if (!afterWrite && isDatabaseUnavailable(err)) throw err;
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
function latestMessagesJson(chatId: SQLWrapper) {
  return sql<MessageRow[]>`(
    select coalesce(json_agg(json_build_object(
      'transid', m.transid, 'type', m.type, 'body', m.body, 'authorLoginId', m.author_login_id, 'sentAt', m.sent_at,
      'streamState', m.stream_state, 'streamSeq', m.stream_seq
    ) order by m.id desc), '[]'::json)
    from (
      select ${messages.id} as id, ${messages.transid} as transid, ${messages.type} as type, ${messages.body} as body,
        ${messages.authorLoginId} as author_login_id, ${messages.sentAt} as sent_at,
        ${messages.streamState} as stream_state, ${messages.streamSeq} as stream_seq
      from ${messages} where ${messages.chatId} = ${chatId} order by ${messages.id} desc limit ${sql.raw(String(CHAT_READ_MESSAGES))}
    ) m)`;
}

type ChatRow = typeof chats.$inferSelect;

/**
 * What the view needs of a chat: the chat's own fields and its related rows. From the JSON of
 * selectChatView, timestamps arrive as ISO strings; from the relational reads of lists, as Dates.
 */
export type ChatViewRow = Pick<
  ChatRow,
  | 'id'
  | 'aliasId'
  | 'teamId'
  | 'skill'
  | 'status'
  | 'channel'
  | 'subject'
  | 'threadId'
  | 'browserFingerprint'
  | 'flag'
  | 'tags'
  | 'otherDetails'
  | 'outcome'
> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  typingUntil: Date | string | null;
  typingStatus: string | null;
  team: { name: string };
  asset: { id: number; name: string; address: string | null };
  customer: { id: number; destinationId: string; name: string };
  assignee: { loginId: string } | null;
  messages: MessageRow[];
};

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
    typing: typingOf(row),
  };
}

/** The typing indicator as the chat shows it: on only until it expires (decided at read time). */
function typingOf(row: { typingUntil: Date | string | null; typingStatus: string | null }, now = Date.now()): Chat['typing'] {
  if (row.typingUntil === null) return null;
  const until = row.typingUntil instanceof Date ? row.typingUntil : new Date(row.typingUntil);
  if (until.getTime() <= now) return null;
  return { on: true, expires_at: until.toISOString(), status_text: row.typingStatus };
}

function iso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}
