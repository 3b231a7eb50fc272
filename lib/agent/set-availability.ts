import type { Db } from '@/db/client';
import { updateUser } from '@/lib/users/update-user';
import { type AgentProfile, getAgentProfile } from './get-agent-profile';

/**
 * Available or away (`unavailable`), as routing and auto-assign read it: the console's own user
 * update, so becoming available at once offers the person queued chats of auto-assign teams.
 */
export async function setAvailability(
  db: Db,
  { accountId, userId, availability }: { accountId: number; userId: number; availability: 'available' | 'unavailable' },
): Promise<AgentProfile> {
  await updateUser(db, { accountId, userId, patch: { availability } });
  return getAgentProfile(db, { accountId, userId });
}
