ALTER TABLE "chats" ADD COLUMN "turn_id" text;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "customer_typing_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "turn_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stale" boolean;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "turn_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "held_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "held_cap_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "held_ms" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "turn_closed_by" text;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "turn_window_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "turn_window_max_ms" integer;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "on_new_turn" text DEFAULT 'continue' NOT NULL;--> statement-breakpoint
CREATE INDEX "events_held_idx" ON "events" USING btree ("held_until") WHERE "events"."held_until" is not null;