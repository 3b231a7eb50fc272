-- Admin search: trigram indexes serve `ilike '%…%'` on customer names, destination IDs and alias IDs.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customers_destination_trgm_idx" ON "customers" USING gin ("destination_id" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "chats_alias_trgm_idx" ON "chats" USING gin ("alias_id" gin_trgm_ops);
--> statement-breakpoint
-- Latency histogram key: milliseconds under 100, two significant figures above.
CREATE OR REPLACE FUNCTION delivery_latency_key(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN ms < 100 THEN greatest(ms, 0)
    ELSE (round(ms / power(10::numeric, floor(log(ms::numeric)) - 1)) * power(10::numeric, floor(log(ms::numeric)) - 1))::integer END
$$;
--> statement-breakpoint
-- Every statement that records attempts adds them to the per-minute rollups, one upsert per
-- (account, VA, minute) in key order so concurrent writers lock rows in the same order.
CREATE OR REPLACE FUNCTION delivery_rollup_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_rollups AS r (account_id, virtual_agent_id, minute, attempts, delivered, not_ok, last_attempt_at, last_error_at, last_error)
  SELECT e.account_id, e.virtual_agent_id, date_trunc('minute', a.started_at), count(*),
    count(*) FILTER (WHERE a.http_status = 200),
    count(*) FILTER (WHERE a.http_status IS DISTINCT FROM 200),
    max(a.started_at),
    max(a.started_at) FILTER (WHERE a.http_status IS DISTINCT FROM 200),
    (array_agg(coalesce(a.error, 'HTTP ' || a.http_status::text) ORDER BY a.started_at DESC) FILTER (WHERE a.http_status IS DISTINCT FROM 200))[1]
  FROM new_attempts a JOIN events e ON e.id = a.event_id
  GROUP BY 1, 2, 3
  ORDER BY 1, 3, 2
  ON CONFLICT (account_id, minute, virtual_agent_id) DO UPDATE SET
    attempts = r.attempts + excluded.attempts,
    delivered = r.delivered + excluded.delivered,
    not_ok = r.not_ok + excluded.not_ok,
    last_attempt_at = greatest(r.last_attempt_at, excluded.last_attempt_at),
    last_error = CASE WHEN excluded.last_error_at IS NOT NULL AND (r.last_error_at IS NULL OR excluded.last_error_at >= r.last_error_at)
      THEN excluded.last_error ELSE r.last_error END,
    last_error_at = greatest(r.last_error_at, excluded.last_error_at);
  INSERT INTO delivery_latency_rollups AS l (account_id, minute, duration_ms, attempts)
  SELECT e.account_id, date_trunc('minute', a.started_at), delivery_latency_key(a.duration_ms), count(*)
  FROM new_attempts a JOIN events e ON e.id = a.event_id
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (account_id, minute, duration_ms) DO UPDATE SET attempts = l.attempts + excluded.attempts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER delivery_attempts_rollup AFTER INSERT ON delivery_attempts
  REFERENCING NEW TABLE AS new_attempts FOR EACH STATEMENT EXECUTE FUNCTION delivery_rollup_attempts();
--> statement-breakpoint
-- An event that fails for good turns its last (unsuccessful) attempt from retried into failed; a
-- failed event put back in the queue turns it back.
CREATE OR REPLACE FUNCTION delivery_rollup_failure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_rollups AS r (account_id, virtual_agent_id, minute, failed)
  SELECT NEW.account_id, NEW.virtual_agent_id, date_trunc('minute', a.started_at), CASE WHEN NEW.status = 'failed' THEN 1 ELSE -1 END
  FROM (SELECT started_at, http_status FROM delivery_attempts WHERE event_id = NEW.id ORDER BY attempt_number DESC LIMIT 1) a
  WHERE a.http_status IS DISTINCT FROM 200
  ON CONFLICT (account_id, minute, virtual_agent_id) DO UPDATE SET failed = r.failed + excluded.failed;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_failure_rollup AFTER UPDATE OF status ON events
  FOR EACH ROW WHEN ((OLD.status = 'failed') IS DISTINCT FROM (NEW.status = 'failed')) EXECUTE FUNCTION delivery_rollup_failure();
--> statement-breakpoint
-- Attempts recorded before this migration.
INSERT INTO delivery_rollups (account_id, virtual_agent_id, minute, attempts, delivered, not_ok, failed, last_attempt_at, last_error_at, last_error)
SELECT e.account_id, e.virtual_agent_id, date_trunc('minute', a.started_at), count(*),
  count(*) FILTER (WHERE a.http_status = 200),
  count(*) FILTER (WHERE a.http_status IS DISTINCT FROM 200),
  count(*) FILTER (WHERE a.http_status IS DISTINCT FROM 200 AND e.status = 'failed'
    AND NOT EXISTS (SELECT 1 FROM delivery_attempts later WHERE later.event_id = a.event_id AND later.attempt_number > a.attempt_number)),
  max(a.started_at),
  max(a.started_at) FILTER (WHERE a.http_status IS DISTINCT FROM 200),
  (array_agg(coalesce(a.error, 'HTTP ' || a.http_status::text) ORDER BY a.started_at DESC) FILTER (WHERE a.http_status IS DISTINCT FROM 200))[1]
FROM delivery_attempts a JOIN events e ON e.id = a.event_id
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO delivery_latency_rollups (account_id, minute, duration_ms, attempts)
SELECT e.account_id, date_trunc('minute', a.started_at), delivery_latency_key(a.duration_ms), count(*)
FROM delivery_attempts a JOIN events e ON e.id = a.event_id
GROUP BY 1, 2, 3;
