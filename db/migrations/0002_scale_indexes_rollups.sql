CREATE TABLE "delivery_latency_rollups" (
	"account_id" integer NOT NULL,
	"minute" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "delivery_latency_rollups_account_id_minute_duration_ms_pk" PRIMARY KEY("account_id","minute","duration_ms")
);
--> statement-breakpoint
CREATE TABLE "delivery_rollups" (
	"account_id" integer NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"minute" timestamp (3) with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"not_ok" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp (3) with time zone,
	"last_error_at" timestamp (3) with time zone,
	"last_error" text,
	CONSTRAINT "delivery_rollups_account_id_minute_virtual_agent_id_pk" PRIMARY KEY("account_id","minute","virtual_agent_id")
);
--> statement-breakpoint
DROP INDEX "chats_account_updated_idx";--> statement-breakpoint
DROP INDEX "chats_account_status_idx";--> statement-breakpoint
DROP INDEX "chats_assignee_status_idx";--> statement-breakpoint
ALTER TABLE "delivery_latency_rollups" ADD CONSTRAINT "delivery_latency_rollups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_rollups" ADD CONSTRAINT "delivery_rollups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_rollups" ADD CONSTRAINT "delivery_rollups_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_latency_rollups_minute_idx" ON "delivery_latency_rollups" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "delivery_rollups_minute_idx" ON "delivery_rollups" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "chats_list_idx" ON "chats" USING btree ("account_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_status_list_idx" ON "chats" USING btree ("account_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_channel_list_idx" ON "chats" USING btree ("account_id","channel","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_assignee_status_list_idx" ON "chats" USING btree ("assignee_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_assignee_list_idx" ON "chats" USING btree ("assignee_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_team_list_idx" ON "chats" USING btree ("team_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chats_customer_idx" ON "chats" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "chats_id_prefix_idx" ON "chats" USING btree ("id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "chats_closed_idx" ON "chats" USING btree ("closed_at") WHERE "chats"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "events_account_pending_idx" ON "events" USING btree ("account_id","virtual_agent_id","created_at") WHERE "events"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "events_account_failed_idx" ON "events" USING btree ("account_id","failed_at") WHERE "events"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "events_delivered_at_idx" ON "events" USING btree ("delivered_at") WHERE "events"."status" = 'delivered';