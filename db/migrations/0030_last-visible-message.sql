-- The last message of a chat its customer sees (inbound or outbound) before message `before_id`, 0
-- for none. VOLATILE on purpose: each call reads with a snapshot of its own, taken when it runs, so
-- a statement that waited for a chat's lock (an outbound message written in one statement,
-- lib/chats/append-message.ts) sees the message whose transaction held that lock, which the
-- statement's own snapshot, taken before the wait, does not. The body names its arguments by
-- position ($1 the chat, $2 the message), so a test can EXPLAIN it as it stands (test/plans/chats).
CREATE FUNCTION last_visible_message_before(chat text, before_id bigint) RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT coalesce(max(m.id), 0) FROM messages m
  WHERE m.chat_id = $1 AND m.type IN ('inbound', 'outbound') AND m.id < $2
$$;
