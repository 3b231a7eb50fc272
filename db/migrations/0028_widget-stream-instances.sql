CREATE TABLE "widget_stream_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_streams" ADD COLUMN "instance_id" text;--> statement-breakpoint
ALTER TABLE "widget_streams" ADD CONSTRAINT "widget_streams_instance_id_widget_stream_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."widget_stream_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_streams_instance_idx" ON "widget_streams" USING btree ("instance_id");