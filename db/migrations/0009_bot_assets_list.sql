DROP INDEX "assets_account_idx";--> statement-breakpoint
CREATE INDEX "assets_list_idx" ON "assets" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "assets_channel_list_idx" ON "assets" USING btree ("account_id","channel","id");