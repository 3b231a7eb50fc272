import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Approval, decideApprovalBodySchema } from '@/contracts/bot/schemas/approval';
import type { Db } from '@/db/client';
import { approvals, skills, userSkills } from '@/db/schema';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { eventChatOf, lockChat } from '@/lib/chats/lock-chat';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { withOutbox } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { selectApprovals, toApprovalView } from './approval-view';

/**
 * A person of the approval's team (with its skill, when it names one; 2121 for anyone else, as for
 * an approval that does not exist) approves or rejects a pending request, with an optional comment
 * and new values for the details the bot marked editable (2123 for others). A request already
 * decided, or past its expiry even if the duty has not marked it yet, is 2122. The VA that asked
 * receives `approval.decided` in the same transaction (outbox: webhook or pull). The row keeps who
 * and when; the workspace's audit log records the call.
 */
export async function decideApproval(
  db: Db,
  {
    agent,
    approvalId,
    body,
    now = new Date(),
  }: { agent: AgentAuth; approvalId: string; body: z.infer<typeof decideApprovalBodySchema>; now?: Date },
): Promise<Approval> {
  const chatId = await withOutbox(db, async (tx) => {
    const [peek] = await tx
      .select({ chatId: approvals.chatId })
      .from(approvals)
      .where(and(eq(approvals.id, approvalId), eq(approvals.accountId, agent.accountId)));
    if (!peek) throw notFound(approvalId);
    // The chat first, as every chat change locks it first: its lock orders the VA's events.
    const chat = await lockChat(tx, { accountId: agent.accountId, chatId: peek.chatId });
    const [row] = await tx.select().from(approvals).where(eq(approvals.id, approvalId)).for('update');
    if (!row || !agent.teamIds.includes(row.teamId)) throw notFound(approvalId);
    if (row.skill !== null && !(await hasSkill(tx, { userId: agent.userId, teamId: row.teamId, skill: row.skill })))
      throw notFound(approvalId);
    if (row.status !== 'pending' || row.expiresAt <= now) {
      throw new ApiError(2122, { detail: row.status === 'pending' ? 'it expired' : `it is ${row.status}` });
    }
    const editable = new Set(row.details.filter((d) => d.editable).map((d) => d.key));
    const wrong = Object.keys(body.details ?? {}).filter((k) => !editable.has(k));
    if (wrong.length) {
      throw new ApiError(2123, {
        detail: wrong.join(', '),
        errors: wrong.map((k) => ({ field: `details.${k}`, message: 'not an editable detail of this request' })),
      });
    }
    const decided = Object.fromEntries(row.details.map((d) => [d.key, body.details?.[d.key] ?? d.value]));
    const status = body.decision === 'approve' ? 'approved' : 'rejected';
    const comment = body.comment?.length ? body.comment : null;
    await tx
      .update(approvals)
      .set({
        status,
        comment,
        decidedDetails: decided,
        decidedByUserId: agent.userId,
        decidedBy: agent.loginId,
        decidedAt: now,
        updatedAt: now,
      })
      .where(eq(approvals.id, approvalId));
    await enqueueEvent(tx, {
      accountId: agent.accountId,
      chat: eventChatOf(chat),
      vaUserId: row.vaUserId,
      cause: {
        type: 'approval.decided',
        approvalId,
        action: row.action,
        decision: status,
        comment,
        details: decided,
        decidedBy: agent.loginId,
        at: now,
      },
    });
    return row.chatId;
  });
  const [row] = await selectApprovals(db).where(and(eq(approvals.id, approvalId), eq(approvals.chatId, chatId)));
  return toApprovalView(row);
}

function notFound(approvalId: string): ApiError {
  return new ApiError(2121, { detail: `approval ${approvalId} (none for your teams)` });
}

async function hasSkill(tx: Db, { userId, teamId, skill }: { userId: number; teamId: number; skill: string }): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(userSkills)
    .innerJoin(skills, eq(skills.id, userSkills.skillId))
    .where(and(eq(userSkills.userId, userId), eq(skills.teamId, teamId), eq(skills.name, skill)));
  return row !== undefined;
}
