CREATE TABLE "replay_chats" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"recording" jsonb NOT NULL,
	"result" jsonb,
	"chat_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	CONSTRAINT "replay_chats_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "replay_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sandbox_account_id" integer NOT NULL,
	"virtual_agent_id" integer NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"chats_total" integer NOT NULL,
	"chats_done" integer DEFAULT 0 NOT NULL,
	"error" text,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "sandbox_of_account_id" integer;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "replay_run_id" text;--> statement-breakpoint
ALTER TABLE "replay_chats" ADD CONSTRAINT "replay_chats_run_id_replay_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."replay_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_sandbox_account_id_accounts_id_fk" FOREIGN KEY ("sandbox_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_virtual_agent_id_users_id_fk" FOREIGN KEY ("virtual_agent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replay_chats_chat_idx" ON "replay_chats" USING btree ("chat_id") WHERE "replay_chats"."chat_id" is not null;--> statement-breakpoint
CREATE INDEX "replay_runs_account_idx" ON "replay_runs" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "replay_runs_created_idx" ON "replay_runs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_sandbox_of_key" ON "accounts" USING btree ("sandbox_of_account_id") WHERE "accounts"."sandbox_of_account_id" is not null;--> statement-breakpoint
CREATE INDEX "chats_account_created_idx" ON "chats" USING btree ("account_id","created_at","id");