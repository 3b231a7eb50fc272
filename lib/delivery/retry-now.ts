import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { runningEmbeddedEngine } from './embedded-engine';
import { hurryWaitingEvents } from './hurry-waiting-events';

/**
 * An administrator's "Retry now" for one VA: its events waiting for a retry (or held by a paused
 * endpoint) are due at once, and this instance's circuit for its webhook starts closed again.
 * Order per chat still holds (head-of-line). A VA that is disabled or whose webhook was stopped
 * (410) stays held: enable it or set a new webhook URL first.
 */
export async function retryVirtualAgentNow(db: Db, { accountId, id }: { accountId: number; id: number }): Promise<{ due_now: number }> {
  const [va] = await db
    .select({ id: virtualAgents.userId })
    .from(virtualAgents)
    .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)));
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
  runningEmbeddedEngine()?.health.reset(id);
  return { due_now: await hurryWaitingEvents(db, { accountId, virtualAgentId: id }) };
}
