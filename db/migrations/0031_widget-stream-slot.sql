-- Admits one widget stream in one round trip: takes the customer's advisory lock, then the chat's
-- (always in that order), counts the streams open for each over every live instance, and records
-- the stream under its instance when both are under their caps. Answers 0 when admitted, 1 when
-- the customer's cap is reached, 2 when the chat's is. PL/pgSQL on purpose: under READ COMMITTED
-- each statement of a VOLATILE function reads with a snapshot taken when it runs, so the counts,
-- read after the locks, see every stream a concurrent open committed while this one waited (one
-- SQL statement would count with a snapshot taken before its locks, and two opens could both pass
-- the last place). A row counts while its instance was seen within `stale_seconds`, or, for a row
-- of the release before (no instance), while its own `seen_at` is that fresh.
CREATE FUNCTION take_widget_stream_slot(
  slot text, customer_key text, chat text, instance text,
  per_customer integer, per_chat integer, stale_seconds integer
) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('widget_streams:customer'), hashtext(customer_key));
  PERFORM pg_advisory_xact_lock(hashtext('widget_streams:chat'), hashtext(chat));
  IF (SELECT count(*) FROM widget_streams w LEFT JOIN widget_stream_instances i ON i.id = w.instance_id
      WHERE w.customer = customer_key
        AND coalesce(i.seen_at, w.seen_at) >= now() - stale_seconds * interval '1 second') >= per_customer THEN
    RETURN 1;
  END IF;
  IF (SELECT count(*) FROM widget_streams w LEFT JOIN widget_stream_instances i ON i.id = w.instance_id
      WHERE w.chat_id = chat
        AND coalesce(i.seen_at, w.seen_at) >= now() - stale_seconds * interval '1 second') >= per_chat THEN
    RETURN 2;
  END IF;
  INSERT INTO widget_streams (id, customer, chat_id, instance_id) VALUES (slot, customer_key, chat, instance);
  RETURN 0;
END
$$;
