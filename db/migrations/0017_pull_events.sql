CREATE TABLE "event_cursors" (
	"virtual_agent_id" integer PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"acked_xid" bigint DEFAULT 0 NOT NULL,
	"acked_id" bigint DEFAULT 0 NOT NULL,
	"acked_at" timestamp (3) with time zone,
	"last_read_at" timestamp (3) with time zone,
	"floor_xid" bigint DEFAULT 0 NOT NULL,
	"floor_id" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "virtual_agents" ALTER COLUMN "webhook_url" DROP NOT NULL;--> statement-breakpoint
-- Events written before this migration take position 0 (ordered by id among themselves, all committed);
-- a constant default adds the column without rewriting the table.
ALTER TABLE "events" ADD COLUMN "stream_xid" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "stream_xid" SET DEFAULT (pg_current_xact_id()::text)::bigint;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "delivery_mode" text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_cursors" ADD CONSTRAINT "event_cursors_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_cursors" ADD CONSTRAINT "event_cursors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_streams_va_idx" ON "event_streams" USING btree ("virtual_agent_id","seen_at");--> statement-breakpoint
CREATE INDEX "events_va_stream_idx" ON "events" USING btree ("virtual_agent_id","stream_xid","id");