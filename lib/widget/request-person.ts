import { and, eq } from 'drizzle-orm';
import type { WidgetChat } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { messages, teams, users, virtualAgents } from '@/db/schema';
import { handOverToFallback } from '@/lib/chats/hand-over-to-fallback';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { withOutbox } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat } from './widget-chat-view';

/**
 * The widget's "Talk to a person" on the customer's own open chat (2031 for anyone else's, 2040
 * once closed). On a chat a virtual agent holds, what happens is the VA's `person_request`:
 *  - `fallback`: the chat goes to the VA's fallback team and skill (the chat's own team's queue
 *    when it has none), as a handover from the VA with source `person_request`: the VA gets
 *    `chat.unassigned`, people see its prepared context on the card, auto-assign may pick someone;
 *  - `bot`: the chat stays with the VA, which gets `handover.requested` and decides.
 * Either way an announcement records the request for people. On a chat already waiting for or
 * held by a person nothing changes. Answers the chat as the customer now sees it.
 */
export async function requestPerson(
  db: Db,
  { visitor, chatId, now = new Date() }: { visitor: WidgetVisitorAuth; chatId: string; now?: Date },
): Promise<WidgetChat> {
  const before = await loadOwnChat(db, { visitor, chatId });
  if (before.status === 'closed') throw new ApiError(2040, { detail: 'this chat has ended: start a new one' });
  if (before.handled_by !== 'bot') return before;
  await withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId: visitor.accountId, chatId });
    if (chat.status === 'closed' || chat.assigneeId === null) return;
    const [va] = await tx
      .select({
        id: virtualAgents.userId,
        mode: virtualAgents.personRequest,
        fallbackTeamId: teams.id,
        fallbackSkill: virtualAgents.fallbackSkill,
      })
      .from(virtualAgents)
      .innerJoin(users, eq(users.id, virtualAgents.userId))
      .leftJoin(teams, and(eq(teams.id, virtualAgents.fallbackTeamId), eq(teams.accountId, virtualAgents.accountId)))
      .where(eq(virtualAgents.userId, chat.assigneeId));
    // A person took it meanwhile: already where the customer asked to be.
    if (!va) return;
    if (va.mode === 'bot') {
      await tx.insert(messages).values({
        chatId,
        accountId: visitor.accountId,
        transid: newTraceId(),
        type: 'announcement',
        body: { text: 'The customer asked for a person; the bot was told (handover.requested).' },
        authorLoginId: null,
        sentAt: now,
      });
      await enqueueEvent(tx, {
        accountId: visitor.accountId,
        chat: eventChatOf(chat),
        vaUserId: va.id,
        cause: { type: 'handover.requested', at: now },
      });
      return;
    }
    const teamId = va.fallbackTeamId ?? chat.teamId;
    await handOverToFallback(tx, {
      accountId: visitor.accountId,
      chat,
      vaUserId: va.id,
      teamId,
      skill: va.fallbackTeamId !== null ? va.fallbackSkill : chat.skill,
      why: 'The customer asked for a person ("Talk to a person" in the chat widget).',
      reason: 'person_request',
      now,
    });
  });
  return loadOwnChat(db, { visitor, chatId });
}
