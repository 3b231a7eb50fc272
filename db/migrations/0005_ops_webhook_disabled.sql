ALTER TABLE "virtual_agents" ADD COLUMN "webhook_disabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "webhook_disabled_reason" text;