CREATE TABLE "widget_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"customer" text NOT NULL,
	"chat_id" text NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "widget_streams_customer_idx" ON "widget_streams" USING btree ("customer");--> statement-breakpoint
CREATE INDEX "widget_streams_chat_idx" ON "widget_streams" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "widget_streams_seen_idx" ON "widget_streams" USING btree ("seen_at");