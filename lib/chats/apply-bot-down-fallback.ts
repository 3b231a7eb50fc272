import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, teams, users, virtualAgents } from '@/db/schema';
import { lockChat } from '@/lib/chats/lock-chat';
import { withOutbox } from '@/lib/events/with-outbox';
import { handOverToFallback } from './hand-over-to-fallback';

/**
 * Bot-down fallback, for VAs that configured one: when an event to the VA has failed for good,
 * the chat (if the VA still holds it and it is open) moves to the fallback team and skill, an
 * announcement says why, and auto-assign may pick a member there. The VA's later events of the
 * chat are superseded and it gets `chat.unassigned` (sent once its webhook answers again).
 * Returns whether it moved.
 */
export async function applyBotDownFallback(db: Db, { eventId }: { eventId: number }): Promise<boolean> {
  return withOutbox(db, async (tx) => {
    const [row] = await tx
      .select({
        accountId: events.accountId,
        chatId: events.chatId,
        status: events.status,
        eventType: events.eventType,
        transactionId: events.transactionId,
        attempts: events.attemptCount,
        lastError: events.lastError,
        vaId: events.virtualAgentId,
        loginId: users.loginId,
        fallbackTeamId: virtualAgents.fallbackTeamId,
        fallbackSkill: virtualAgents.fallbackSkill,
      })
      .from(events)
      .innerJoin(virtualAgents, eq(virtualAgents.userId, events.virtualAgentId))
      .innerJoin(users, eq(users.id, events.virtualAgentId))
      .where(eq(events.id, eventId));
    if (row?.status !== 'failed' || row.fallbackTeamId === null) return false;
    const chat = await lockChat(tx, { accountId: row.accountId, chatId: row.chatId });
    if (chat.assigneeId !== row.vaId || chat.status === 'closed') return false;
    const [team] = await tx
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(and(eq(teams.id, row.fallbackTeamId), eq(teams.accountId, row.accountId)));
    if (!team) return false;
    const now = new Date();
    const why =
      `Virtual agent ${row.loginId} did not accept ${row.eventType} (transaction ${row.transactionId}) after ${row.attempts} attempts` +
      `${row.lastError ? ` (last error: ${row.lastError})` : ''}; chat transferred to ${team.name}${row.fallbackSkill ? ` / ${row.fallbackSkill}` : ''}.`;
    await handOverToFallback(tx, {
      accountId: row.accountId,
      chat,
      vaUserId: row.vaId,
      teamId: team.id,
      skill: row.fallbackSkill,
      why,
      reason: 'bot_down',
      now,
    });
    return true;
  });
}
