ALTER TYPE "public"."event_type" ADD VALUE 'approval.decided';--> statement-breakpoint
ALTER TYPE "public"."event_type" ADD VALUE 'approval.expired';--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "handover_context" jsonb;