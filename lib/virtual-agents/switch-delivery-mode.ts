import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { PULL_PARKED } from '@/lib/events/enqueue-event';

/**
 * Inside the VA update that changes its delivery mode. To `pull`: its pending events leave the due
 * range (they wait for the bot to read and acknowledge them; an attempt in flight finishes). To
 * `webhook`: they are due now, so every event not yet acknowledged is sent, each chat in order.
 * One statement over the VA's pending events (events_account_pending_idx). Switching to `pull`
 * also starts the VA's bot-down clock (event_cursors.pull_since): a bot gets its full idle time to
 * start reading before its chats go to the fallback team.
 */
export async function switchDeliveryMode(
  tx: Db,
  { accountId, vaUserId, to }: { accountId: number; vaUserId: number; to: 'webhook' | 'pull' },
): Promise<void> {
  await tx.execute(sql`
    update events set next_attempt_at = ${to === 'pull' ? PULL_PARKED : sql`now()`}, updated_at = now()
    where account_id = ${accountId} and virtual_agent_id = ${vaUserId} and status = 'pending'`);
  if (to === 'pull') {
    await tx.execute(sql`
      insert into event_cursors as c (virtual_agent_id, account_id, pull_since) values (${vaUserId}, ${accountId}, now())
      on conflict (virtual_agent_id) do update set pull_since = now(), updated_at = now()`);
  }
}
