import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, messages, skills, teamMemberships, users, virtualAgents } from '@/db/schema';
import { toMessageView } from '@/lib/chats/message-view';
import type { EventCause } from '@/lib/events/enqueue-event';
import type { Handback } from '@/lib/handovers/mark-handed-back';
import { ApiError } from '@/platform/errors';

export type Assignee = { id: number; loginId: string; kind: 'agent' | 'manager' | 'virtual_agent'; teamIds: number[] };

/** The enabled user with this login ID in the account, with the teams it belongs to; else 2033. */
export async function resolveAssignee(tx: Db, { accountId, loginId }: { accountId: number; loginId: string }): Promise<Assignee> {
  const [user] = await tx
    .select({ id: users.id, loginId: users.loginId, kind: users.kind, enabled: users.enabled, vaTeamId: virtualAgents.teamId })
    .from(users)
    .leftJoin(virtualAgents, eq(virtualAgents.userId, users.id))
    .where(and(eq(users.accountId, accountId), eq(users.loginId, loginId)));
  if (!user?.enabled) {
    throw new ApiError(2033, {
      detail: `"${loginId}"${user ? ' is disabled' : ''}`,
      errors: [{ field: 'assignee', message: user ? 'user is disabled' : 'no such login ID' }],
    });
  }
  const teamIds =
    user.vaTeamId !== null
      ? [user.vaTeamId]
      : (await tx.select({ teamId: teamMemberships.teamId }).from(teamMemberships).where(eq(teamMemberships.userId, user.id))).map(
          (r) => r.teamId,
        );
  return { id: user.id, loginId: user.loginId, kind: user.kind, teamIds };
}

/**
 * The team a chat lands in when assigned: its current team if the assignee belongs to it,
 * otherwise the assignee's (first) team, since a VA works in exactly one.
 */
export function teamForAssignee(assignee: Assignee, currentTeamId: number | null): number | null {
  if (currentTeamId !== null && assignee.teamIds.includes(currentTeamId)) return currentTeamId;
  return assignee.teamIds[0] ?? currentTeamId;
}

export async function requireSkill(tx: Db, { teamId, name, field }: { teamId: number; name: string; field: string }) {
  const [skill] = await tx
    .select({ id: skills.id })
    .from(skills)
    .where(and(eq(skills.teamId, teamId), eq(skills.name, name)));
  if (!skill)
    throw new ApiError(2034, { detail: `"${name}" in team ${teamId}`, errors: [{ field, message: 'no such skill in the team' }] });
}

/** How much of the transcript a chat.assigned carries when a chat comes back to a VA. */
const RETURN_TRANSCRIPT_LIMIT = 50;

/**
 * What a chat.assigned carries to `vaUserId`: the last message sent to or received from the
 * customer (announcements are for people only); and, when the VA held the chat before (a person,
 * or a transfer, hands it back), the transcript so far, up to the last RETURN_TRANSCRIPT_LIMIT
 * messages, oldest first, so the bot sees what was said while it did not hold the chat.
 */
export async function assignedCause(
  tx: Db,
  { chatId, vaUserId, handback }: { chatId: string; vaUserId: number; handback?: Handback },
): Promise<Extract<EventCause, { type: 'chat.assigned' }>> {
  const [heldBefore] = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.chatId, chatId), eq(events.virtualAgentId, vaUserId)))
    .limit(1);
  const rows = await tx
    .select({
      transid: messages.transid,
      type: messages.type,
      body: messages.body,
      authorLoginId: messages.authorLoginId,
      sentAt: messages.sentAt,
    })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), ne(messages.type, 'announcement')))
    .orderBy(desc(messages.id))
    .limit(heldBefore ? RETURN_TRANSCRIPT_LIMIT : 1);
  const oldestFirst = rows.reverse().map(toMessageView);
  // A hand-back: what was said while people held the chat (the rows above are the latest 50; the
  // ones sent since the handover are among them unless more were said, and then the latest count).
  const since = handback?.heldSince.getTime();
  const whileHeld = since === undefined ? [] : oldestFirst.filter((m) => Date.parse(m.timestamp) >= since);
  return {
    type: 'chat.assigned',
    lastMessage: oldestFirst.at(-1) ?? null,
    ...(heldBefore ? { transcript: oldestFirst } : {}),
    ...(handback ? { handback: { ...handback, messages: whileHeld } } : {}),
  };
}
