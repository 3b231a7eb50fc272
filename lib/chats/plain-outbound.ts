import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, messages } from '@/db/schema';
import { prepared } from '@/platform/util/prepared';
import { statementBatches } from '@/platform/util/statement-batches';

/** A plain outbound message as its statement takes it (times as ISO text). */
export type PlainOutboundItem = {
  chatId: string;
  accountId: number;
  /** The user who must hold the chat (null: anyone). */
  actor: number | null;
  transid: string;
  body: Record<string, unknown>;
  authorLoginId: string | null;
  sentAt: string;
  at: string;
};

/** What the statement found and wrote: the chat as locked, and the message when it was written (`id` null when not). */
export type PlainOutboundRow = {
  status: string;
  channel: string;
  assigneeId: number | null;
  typingUntil: string | null;
  id: number | null;
  transid: string;
  body: Record<string, unknown>;
  authorLoginId: string | null;
  sentAt: string;
  prevId: number;
};

const p = sql.placeholder;

/** What both statements answer, from their `chat` (as locked) and `inserted` parts. */
const answerColumns = () => ({
  status: sql<string>`chat.status`,
  channel: sql<string>`chat.channel`,
  assigneeId: sql<number | null>`chat.assignee_id`,
  typingUntil: sql<string | null>`chat.typing_until`,
  id: sql<number | null>`inserted.id`.mapWith(Number),
  transid: sql<string>`inserted.transid`,
  body: sql<Record<string, unknown>>`inserted.body`.mapWith(messages.body),
  authorLoginId: sql<string | null>`inserted.author_login_id`,
  sentAt: sql<string>`inserted.sent_at`,
  prevId: sql<number>`case when chat.channel = 'livechat' and inserted.id is not null
        then last_visible_message_before(chat.id, inserted.id) else 0 end`,
});

/**
 * The statement of `appendPlainOutbound`. The chat's lock (`for update`) is taken before the insert
 * (which reads the locked row), so messages of one chat are numbered in the order they commit, as
 * under `lockChat`. The last message the customer saw before this one (the widget's hint) is read by `last_visible_message_before`, a volatile function with a snapshot
 * of its own: this statement's snapshot was taken before it waited for the lock, and would miss the
 * message of the transaction it waited for.
 */
export function plainOutboundQuery(db: Db) {
  const p = sql.placeholder;
  const chat = db.$with('chat', { id: sql<string>`id` }).as(sql`
    select ${chats.id}, ${chats.status}, ${chats.channel}, ${chats.assigneeId}, ${chats.typingUntil} from ${chats}
    where ${chats.id} = ${p('chatId')} and ${chats.accountId} = ${p('accountId')}
    for update`);
  const inserted = db.$with('inserted', { id: sql<number>`id` }).as(sql`
    insert into ${messages} (chat_id, account_id, transid, type, body, author_login_id, sent_at)
    select chat.id, ${p('accountId')}, ${p('transid')}, 'outbound', ${p('body')}::jsonb, ${p('authorLoginId')}, ${p('sentAt')}::timestamptz
    from chat
    where chat.status <> 'closed' and (${p('actor')}::int is null or chat.assignee_id = ${p('actor')}::int)
    returning id, chat_id, transid, body, author_login_id, sent_at`);
  // Unread by the select: a data-modifying WITH runs to its end all the same.
  const touched = db.$with('touched', { id: sql<string>`id` }).as(sql`
    update ${chats} set updated_at = ${p('at')}::timestamptz, awaiting_reply_since = null, reply_due_at = null,
      typing_until = null, typing_status = null
    from inserted where ${chats.id} = inserted.chat_id
    returning ${chats.id}`);
  return db.with(chat, inserted, touched).select(answerColumns()).from(chat).leftJoin(inserted, sql`true`);
}
const plainOutboundStatement = prepared('append_plain_outbound', plainOutboundQuery);

/**
 * The plain outbound messages of several chats in one statement, each as `plainOutboundQuery`
 * writes one: the items arrive as one JSON array; the chats are locked in the order of their ids
 * (two such statements cannot each hold a chat the other waits for), each message is inserted
 * from its locked chat, the chats written to are touched, and each item's row comes back with its
 * place (`k`; no chat: no row). Exported for the plan test.
 */
export function plainOutboundBatchQuery(db: Db) {
  const items = db.$with('items', { k: sql<number>`k` }).as(sql`
    select * from jsonb_to_recordset(${p('items')}::jsonb) as v(k int, chat_id text, account_id int, actor int, transid text,
      body jsonb, author_login_id text, sent_at timestamptz, at timestamptz)`);
  const chat = db.$with('chat', { id: sql<string>`id` }).as(sql`
    select c.id, c.status, c.channel, c.assignee_id, c.typing_until, items.k from ${chats} c
    join items on c.id = items.chat_id and c.account_id = items.account_id
    order by c.id
    for update of c`);
  const inserted = db.$with('inserted', { id: sql<number>`id` }).as(sql`
    insert into ${messages} (chat_id, account_id, transid, type, body, author_login_id, sent_at)
    select chat.id, items.account_id, items.transid, 'outbound', items.body, items.author_login_id, items.sent_at
    from chat join items on items.k = chat.k
    where chat.status <> 'closed' and (items.actor is null or chat.assignee_id = items.actor)
    returning id, chat_id, transid, body, author_login_id, sent_at`);
  // Unread by the select: a data-modifying WITH runs to its end all the same.
  const touched = db.$with('touched', { id: sql<string>`id` }).as(sql`
    update ${chats} set updated_at = items.at, awaiting_reply_since = null, reply_due_at = null,
      typing_until = null, typing_status = null
    from inserted join items on items.transid = inserted.transid
    where ${chats.id} = inserted.chat_id
    returning ${chats.id}`);
  return db
    .with(items, chat, inserted, touched)
    .select({
      k: sql<number>`chat.k`.mapWith(Number),
      ...answerColumns(),
    })
    .from(chat)
    .leftJoin(inserted, sql`inserted.chat_id = chat.id`);
}
const plainOutboundBatch = prepared('append_plain_outbound_batch', plainOutboundBatchQuery);

/**
 * Writes a plain outbound message, alone or in one statement with other chats' messages
 * (platform/util/statement-batches.ts: under load, many messages share a round trip and a
 * commit), and answers what the statement found: nothing when the chat is not the account's; the
 * chat with `id` null when it could not take the message (the caller says why).
 */
export const plainOutbounds = statementBatches<PlainOutboundItem, PlainOutboundRow | undefined>({
  alone: async (db, item) => {
    const [row] = await plainOutboundStatement(db).execute({ ...item, body: JSON.stringify(item.body) });
    return row;
  },
  together: async (db, items) => {
    const rows = await plainOutboundBatch(db).execute({
      items: JSON.stringify(
        items.map((i, k) => ({
          k,
          chat_id: i.chatId,
          account_id: i.accountId,
          actor: i.actor,
          transid: i.transid,
          body: i.body,
          author_login_id: i.authorLoginId,
          sent_at: i.sentAt,
          at: i.at,
        })),
      ),
    });
    const byPlace = new Map(rows.map(({ k, ...row }) => [k, row]));
    return items.map((_, k) => byPlace.get(k));
  },
  // One message per chat in a statement: a chat's messages are numbered in the order they commit.
  keyOf: (item) => item.chatId,
});
