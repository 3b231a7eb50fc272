import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, users } from '@/db/schema';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { announceHandover } from '@/lib/chats/announce-handover';
import { fillFreeSeats } from '@/lib/chats/auto-assign';
import { transitionChat } from '@/lib/chats/chat-transition';
import { emitChatEvents } from '@/lib/chats/emit-chat-events';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { openChatLoad } from '@/lib/chats/open-chats';
import { withOutbox } from '@/lib/events/with-outbox';
import { recordHandover } from '@/lib/handovers/record-handover';
import { ApiError } from '@/platform/errors';
import { asAgentWrite, notInTeams } from './agent-scope';

/**
 * A person takes a chat of their teams: a waiting one from the queue, or one a virtual agent holds
 * (the VA loses control as with any reassignment: `chat.unassigned`, reason `reassigned`, naming
 * the person; its waiting events are superseded and its freed seat offered to the queue).
 *
 * Race-safe: the chat's row lock (lockChat) orders concurrent picks; the first commits, every later
 * one finds the chat held by a person and is refused at once with 2083. Capacity holds as for
 * auto-assign: the person's row is locked (`for no key update`, as auto-assign locks its
 * candidates) before their open chats are counted, so two picks of theirs cannot both take the
 * last seat (2084). Picking a chat one already holds answers it as it is.
 */
export async function pickChat(db: Db, { agent, chatId }: { agent: AgentAuth; chatId: string }): Promise<void> {
  await asAgentWrite(chatId, () =>
    withOutbox(db, async (tx) => {
      const chat = await lockChat(tx, { accountId: agent.accountId, chatId });
      // The teams as read with the session, moments ago in this request.
      const teamIds = agent.teamIds;
      if (!teamIds.includes(chat.teamId)) throw notInTeams(chatId);
      if (chat.assigneeId === agent.userId && chat.status !== 'closed') return;
      if (chat.status === 'closed') throw new ApiError(2040, { detail: 'a closed chat cannot be picked' });
      if (chat.assigneeId !== null) {
        const [holder] = await tx.select({ kind: users.kind, loginId: users.loginId }).from(users).where(eq(users.id, chat.assigneeId));
        if (holder && holder.kind !== 'virtual_agent') throw new ApiError(2083, { detail: `${holder.loginId} holds it` });
      }
      const [me] = await tx
        .select({ capacity: users.capacity })
        .from(users)
        .where(and(eq(users.id, agent.userId), eq(users.enabled, true)))
        .for('no key update');
      if (!me) throw new ApiError(2080);
      // A statement of its own, after the lock is granted: its snapshot holds every pick committed
      // before (a sub-select of the locking statement would count with the snapshot taken before the wait).
      const load = await openChatLoad(tx, agent.userId);
      if (load >= me.capacity) throw new ApiError(2084, { detail: `you hold ${load} of ${me.capacity} chats` });

      const next = transitionChat(chat, {
        assignee: { id: agent.userId, loginId: agent.loginId, kind: agent.kind, teamIds },
        actorUserId: agent.userId,
      });
      const now = new Date();
      await tx
        .update(chats)
        .set({
          status: next.status,
          assigneeId: next.assigneeId,
          teamId: next.teamId,
          outcome: next.outcome,
          autoAssigned: false,
          updatedAt: now,
        })
        .where(eq(chats.id, chat.id));
      await announceHandover(tx, { accountId: agent.accountId, chatId: chat.id, text: `Picked by ${agent.loginId}.`, at: now });
      await recordHandover(tx, { accountId: agent.accountId, chat, previousAssigneeId: chat.assigneeId, source: 'taken_over', at: now });
      await emitChatEvents(tx, {
        accountId: agent.accountId,
        chat: eventChatOf({ ...chat, teamId: next.teamId }),
        sequenceBefore: chat.eventSeq,
        plan: next,
        at: now,
      });
      if (next.released) await fillFreeSeats(tx, { accountId: agent.accountId, userId: next.released.userId });
    }),
  );
}
