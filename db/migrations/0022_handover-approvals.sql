CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"chat_id" text NOT NULL,
	"va_user_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"skill" text,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"comment" text,
	"decided_details" jsonb,
	"decided_by_user_id" integer,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_handovers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"chat_id" text NOT NULL,
	"va_user_id" integer NOT NULL,
	"source" text NOT NULL,
	"reason" text,
	"summary" text,
	"intent" text,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"handed_back_at" timestamp (3) with time zone,
	"handed_back_by" text,
	"handback_note" text
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "max_handovers_per_chat" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_agents" ADD COLUMN "person_request" text DEFAULT 'fallback' NOT NULL;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_va_user_id_users_id_fk" FOREIGN KEY ("va_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_handovers" ADD CONSTRAINT "chat_handovers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_handovers" ADD CONSTRAINT "chat_handovers_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_handovers" ADD CONSTRAINT "chat_handovers_va_user_id_users_id_fk" FOREIGN KEY ("va_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_pending_expiry_idx" ON "approvals" USING btree ("expires_at") WHERE "approvals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "approvals_team_pending_idx" ON "approvals" USING btree ("team_id","created_at") WHERE "approvals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "approvals_chat_idx" ON "approvals" USING btree ("chat_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_handovers_chat_idx" ON "chat_handovers" USING btree ("chat_id","id");