ALTER TABLE "bot_requests" DROP CONSTRAINT "bot_requests_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "bot_requests" DROP CONSTRAINT "bot_requests_virtual_agent_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "bot_requests_va_code_idx";--> statement-breakpoint
DROP INDEX "bot_requests_at_idx";--> statement-breakpoint
CREATE INDEX "bot_requests_va_failures_idx" ON "bot_requests" USING btree ("virtual_agent_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "bot_requests"."http_status" >= 400;--> statement-breakpoint
CREATE INDEX "bot_requests_at_brin" ON "bot_requests" USING brin ("at");