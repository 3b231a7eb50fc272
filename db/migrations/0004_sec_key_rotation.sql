ALTER TABLE "virtual_agents" ADD COLUMN "previous_signing_secret" text;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "previous_signing_secret_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "previous_api_key_hash" text;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "previous_api_key_expires_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "virtual_agents_previous_api_key_hash_idx" ON "virtual_agents" USING btree ("previous_api_key_hash") WHERE "virtual_agents"."previous_api_key_hash" is not null;