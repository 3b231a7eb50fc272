import { sql } from 'drizzle-orm';

/**
 * `status = 'pending'` written as a literal, never a bound parameter: the partial index on pending
 * events (`events_due_idx`) only serves queries whose text names the value, and a prepared
 * statement's generic plan would otherwise scan the whole table.
 */
export const isPending = sql`"events"."status" = 'pending'`;

/**
 * True for an event of the outer `events` row when the chat's previous event for the same VA is no
 * longer pending (delivered or failed), or there is none: the event is at the head of its chat's
 * line and may be sent. Events leave `pending` in `seq` order (only a head is ever sent, and a
 * chat's seq is taken under its row lock, so seq order is commit order), which makes the
 * predecessor's state enough: one backward step in `events_chat_va_seq_idx`, however long the
 * chat's history and however many of its rows are dead. A redelivered event is the exception: it
 * is back in `pending` behind delivered ones, so it is not ordered with the chat's newer events.
 */
export const isHeadOfLine = sql`coalesce((
  select "earlier"."status" from "events" as "earlier"
  where "earlier"."chat_id" = "events"."chat_id"
    and "earlier"."virtual_agent_id" = "events"."virtual_agent_id"
    and "earlier"."seq" < "events"."seq"
  order by "earlier"."seq" desc
  limit 1), 'delivered') <> 'pending'`;
