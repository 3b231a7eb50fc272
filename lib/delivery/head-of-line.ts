import { sql } from 'drizzle-orm';

/**
 * `status = 'pending'` written as a literal, never a bound parameter: the partial index on pending
 * events (`events_due_idx`) only serves queries whose text names the value, and a prepared
 * statement's generic plan would otherwise scan the whole table.
 */
export const isPending = sql`"events"."status" = 'pending'`;

/**
 * True for an event of the outer `events` row when the chat's previous event for the same VA, not
 * counting superseded ones, is no longer pending (delivered or failed), or there is none: the event
 * is at the head of its chat's line and may be sent. Events leave `pending` for `delivered` or
 * `failed` in `seq` order (only a head is ever sent, and a chat's seq is taken under its row lock,
 * so seq order is commit order), which makes that predecessor's state enough: a backward step in
 * `events_chat_va_seq_idx`, past the few superseded rows of a handover, however long the chat's
 * history. Superseding is the one way out of `pending` out of order: it skips the event in flight
 * (supersede-pending-events.ts) and takes the ones waiting behind it, so the chat's next event
 * (its `chat.unassigned`) looks past them to the one in flight and waits for its answer.
 * A redelivered event is the exception: it is back in `pending` behind delivered ones, so it is
 * not ordered with the chat's newer events.
 */
export const isHeadOfLine = sql`coalesce((
  select "earlier"."status" from "events" as "earlier"
  where "earlier"."chat_id" = "events"."chat_id"
    and "earlier"."virtual_agent_id" = "events"."virtual_agent_id"
    and "earlier"."seq" < "events"."seq"
    and "earlier"."status" <> 'superseded'
  order by "earlier"."seq" desc
  limit 1), 'delivered') <> 'pending'`;
