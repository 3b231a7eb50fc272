import { sql } from 'drizzle-orm';

/**
 * True for an event of the outer `events` row when no earlier event of the same chat to the same
 * VA is still pending: the only one of its chat that may be sent now. Delivered and failed events
 * no longer hold the line. Served by `events_chat_va_seq_idx`.
 */
export const isHeadOfLine = sql`not exists (
  select 1 from "events" as "earlier"
  where "earlier"."chat_id" = "events"."chat_id"
    and "earlier"."virtual_agent_id" = "events"."virtual_agent_id"
    and "earlier"."status" = 'pending'
    and "earlier"."seq" < "events"."seq")`;
