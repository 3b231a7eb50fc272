-- Rewrites bot_requests (the trxid becomes a uuid) under an exclusive lock: the request log buffers its rows in memory meanwhile (BOT_REQUEST_LOG_MAX_BUFFER), and the bot API is not held up.
DROP INDEX "bot_requests_va_idx";--> statement-breakpoint
DROP INDEX "bot_requests_trxid_idx";--> statement-breakpoint
DROP INDEX "bot_requests_va_failures_idx";--> statement-breakpoint
DROP INDEX "bot_requests_chat_idx";--> statement-breakpoint
ALTER TABLE "bot_requests" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "bot_requests" ALTER COLUMN "trxid" SET DATA TYPE uuid USING "trxid"::uuid;--> statement-breakpoint
ALTER TABLE "bot_requests" ADD CONSTRAINT "bot_requests_pkey" PRIMARY KEY("virtual_agent_id","trxid");--> statement-breakpoint
CREATE INDEX "bot_requests_va_failures_idx" ON "bot_requests" USING btree ("virtual_agent_id","trxid") WHERE "bot_requests"."http_status" >= 400;--> statement-breakpoint
CREATE INDEX "bot_requests_chat_idx" ON "bot_requests" USING btree ("chat_id","trxid") WHERE "bot_requests"."chat_id" is not null;
