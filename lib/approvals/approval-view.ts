import { eq } from 'drizzle-orm';
import type { Approval } from '@/contracts/bot/schemas/approval';
import type { Db } from '@/db/client';
import { approvals, users } from '@/db/schema';

/** The columns an approval's view needs, with the asking VA's login ID. */
const approvalColumns = {
  id: approvals.id,
  chatId: approvals.chatId,
  status: approvals.status,
  action: approvals.action,
  summary: approvals.summary,
  details: approvals.details,
  teamId: approvals.teamId,
  skill: approvals.skill,
  requestedBy: users.loginId,
  createdAt: approvals.createdAt,
  expiresAt: approvals.expiresAt,
  comment: approvals.comment,
  decidedDetails: approvals.decidedDetails,
  decidedBy: approvals.decidedBy,
  decidedAt: approvals.decidedAt,
};

export const selectApprovals = (db: Db) => db.select(approvalColumns).from(approvals).innerJoin(users, eq(users.id, approvals.vaUserId));

type Row = Awaited<ReturnType<ReturnType<typeof selectApprovals>['execute']>>[number];

export function toApprovalView(r: Row): Approval {
  return {
    approval_id: r.id,
    chat_id: r.chatId,
    status: r.status,
    action: r.action,
    summary: r.summary,
    details: r.details,
    team_id: r.teamId,
    skill_name: r.skill,
    requested_by: r.requestedBy,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    decision:
      r.decidedAt && (r.status === 'approved' || r.status === 'rejected')
        ? { by: r.decidedBy ?? '', at: r.decidedAt.toISOString(), comment: r.comment, details: r.decidedDetails ?? {} }
        : null,
  };
}
