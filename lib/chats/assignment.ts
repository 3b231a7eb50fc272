import { and, desc, eq, ne } from 'drizzle-orm';
import type { Message } from '@/contracts/schemas/message';
import type { Db } from '@/db/client';
import { messages, skills, teamMemberships, users, virtualAgents } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { toMessageView } from '@/lib/messages/message-view';

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

/** The last message sent to or received from the customer; announcements are for agents only. */
export async function lastMessageOf(tx: Db, chatId: string): Promise<Message | null> {
  const [row] = await tx
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
    .limit(1);
  return row ? toMessageView(row) : null;
}
