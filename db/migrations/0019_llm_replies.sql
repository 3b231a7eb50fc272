CREATE TABLE "reply_timeouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"chat_id" text NOT NULL,
	"action" text NOT NULL,
	"waited_seconds" integer NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "typing_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "typing_status" text;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "awaiting_reply_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "reply_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stream_state" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stream_seq" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stream_ends" integer[];--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stream_touched_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "reply_timeout_seconds" integer;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "reply_timeout_action" text DEFAULT 'handover' NOT NULL;--> statement-breakpoint
ALTER TABLE "reply_timeouts" ADD CONSTRAINT "reply_timeouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_timeouts" ADD CONSTRAINT "reply_timeouts_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_timeouts" ADD CONSTRAINT "reply_timeouts_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reply_timeouts_va_idx" ON "reply_timeouts" USING btree ("virtual_agent_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "reply_timeouts_at_idx" ON "reply_timeouts" USING btree ("at");--> statement-breakpoint
CREATE INDEX "reply_timeouts_chat_idx" ON "reply_timeouts" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "chats_reply_due_idx" ON "chats" USING btree ("reply_due_at") WHERE "chats"."reply_due_at" is not null;--> statement-breakpoint
CREATE INDEX "chats_awaiting_reply_idx" ON "chats" USING btree ("assignee_id","awaiting_reply_since") WHERE "chats"."awaiting_reply_since" is not null;--> statement-breakpoint
CREATE INDEX "messages_open_stream_idx" ON "messages" USING btree ("stream_touched_at") WHERE "messages"."stream_state" = 'open';--> statement-breakpoint
CREATE INDEX "messages_open_stream_chat_idx" ON "messages" USING btree ("chat_id") WHERE "messages"."stream_state" = 'open';