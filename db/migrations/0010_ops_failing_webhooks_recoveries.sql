CREATE TABLE "event_recoveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"since" timestamp (3) with time zone NOT NULL,
	"until" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"requeued" integer DEFAULT 0 NOT NULL,
	"cursor_created_at" timestamp (3) with time zone,
	"cursor_id" bigint,
	"locked_until" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "recovery_id" bigint;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "webhook_failing_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "webhook_failing_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "event_recoveries" ADD CONSTRAINT "event_recoveries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_recoveries" ADD CONSTRAINT "event_recoveries_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_recoveries_va_created_idx" ON "event_recoveries" USING btree ("virtual_agent_id","created_at");--> statement-breakpoint
CREATE INDEX "event_recoveries_running_idx" ON "event_recoveries" USING btree ("created_at") WHERE "event_recoveries"."status" = 'running';--> statement-breakpoint
CREATE INDEX "event_recoveries_finished_idx" ON "event_recoveries" USING btree ("finished_at") WHERE "event_recoveries"."status" = 'done';--> statement-breakpoint
CREATE INDEX "events_va_failed_created_idx" ON "events" USING btree ("virtual_agent_id","created_at","id") WHERE "events"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "events_recovery_idx" ON "events" USING btree ("recovery_id","status") WHERE "events"."recovery_id" is not null;--> statement-breakpoint
CREATE INDEX "virtual_agents_failing_since_idx" ON "virtual_agents" USING btree ("webhook_failing_since") WHERE "virtual_agents"."webhook_failing_since" is not null and "virtual_agents"."webhook_failing_at" is null;