import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Approval, CreateApprovalBody } from '@/contracts/bot/schemas/approval';
import type { Db } from '@/db/client';
import { approvals } from '@/db/schema';
import { requireSkill } from '@/lib/chats/assignment';
import { lockChat, requireTeam } from '@/lib/chats/lock-chat';
import { requireHeld } from '@/lib/chats/require-held';
import { withOutbox } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { selectApprovals, toApprovalView } from './approval-view';

/**
 * A VA asks people of a team (and skill) to approve an action while it keeps the chat. Only the VA
 * holding the chat may ask (2043), on an open chat (2040). The request is pending until a person
 * decides (approval.decided) or it expires (approval.expired); meanwhile the customer's widget
 * shows a status line and the team's workspaces list it, both told by the chat's change (the
 * chat's lock notes it, so its live views wake after commit).
 */
export async function requestApproval(
  db: Db,
  {
    accountId,
    vaUserId,
    chatId,
    body,
    now = new Date(),
  }: { accountId: number; vaUserId: number; chatId: string; body: CreateApprovalBody; now?: Date },
): Promise<Approval> {
  const id = randomUUID();
  await withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    requireHeld(chat, vaUserId);
    if (chat.status === 'closed') throw new ApiError(2040, { detail: 'a closed chat takes no approval request' });
    await requireTeam(tx, { accountId, teamId: body.team_id });
    if (body.skill_name) await requireSkill(tx, { teamId: body.team_id, name: body.skill_name, field: 'skill_name' });
    await tx.insert(approvals).values({
      id,
      accountId,
      chatId,
      vaUserId,
      teamId: body.team_id,
      skill: body.skill_name ?? null,
      action: body.action,
      summary: body.summary,
      details: body.details,
      expiresAt: new Date(now.getTime() + body.expires_in_seconds * 1000),
      createdAt: now,
      updatedAt: now,
    });
  });
  return getApproval(db, { accountId, chatId, approvalId: id });
}

/** A request of the account's chat (2121 otherwise: another chat's, another account's, or none). */
export async function getApproval(
  db: Db,
  { accountId, chatId, approvalId }: { accountId: number; chatId: string; approvalId: string },
): Promise<Approval> {
  const [row] = await selectApprovals(db).where(
    and(eq(approvals.id, approvalId), eq(approvals.chatId, chatId), eq(approvals.accountId, accountId)),
  );
  if (!row) throw new ApiError(2121, { detail: `approval ${approvalId} of chat ${chatId}` });
  return toApprovalView(row);
}
