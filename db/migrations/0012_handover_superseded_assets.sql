ALTER TYPE "public"."event_status" ADD VALUE 'superseded';--> statement-breakpoint
DROP INDEX "assets_account_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "superseded_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "assets_list_idx" ON "assets" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "assets_channel_list_idx" ON "assets" USING btree ("account_id","channel","id");--> statement-breakpoint
CREATE INDEX "events_account_superseded_idx" ON "events" USING btree ("account_id","superseded_at") WHERE "events"."superseded_at" is not null;--> statement-breakpoint
CREATE INDEX "events_superseded_at_idx" ON "events" USING btree ("superseded_at") WHERE "events"."superseded_at" is not null;