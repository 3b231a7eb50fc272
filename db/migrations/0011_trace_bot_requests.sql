CREATE TABLE "bot_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"operation" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"chat_id" text,
	"http_status" integer NOT NULL,
	"status_code" integer,
	"description" text NOT NULL,
	"trxid" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"idempotency_key" text
);
--> statement-breakpoint
ALTER TABLE "bot_requests" ADD CONSTRAINT "bot_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_requests" ADD CONSTRAINT "bot_requests_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_requests_va_idx" ON "bot_requests" USING btree ("virtual_agent_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bot_requests_va_code_idx" ON "bot_requests" USING btree ("virtual_agent_id","status_code","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bot_requests_chat_idx" ON "bot_requests" USING btree ("chat_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "bot_requests"."chat_id" is not null;--> statement-breakpoint
CREATE INDEX "bot_requests_trxid_idx" ON "bot_requests" USING btree ("trxid");--> statement-breakpoint
CREATE INDEX "bot_requests_idempotency_idx" ON "bot_requests" USING btree ("account_id","idempotency_key") WHERE "bot_requests"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "bot_requests_at_idx" ON "bot_requests" USING btree ("at");