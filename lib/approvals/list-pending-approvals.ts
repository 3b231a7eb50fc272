import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Approval } from '@/contracts/bot/schemas/approval';
import type { Db } from '@/db/client';
import { approvals, skills, userSkills } from '@/db/schema';
import { selectApprovals, toApprovalView } from './approval-view';

/** The most pending requests a workspace lists. */
const LIMIT = 50;

/**
 * The pending requests a person may decide: their teams', without a skill or with one of theirs,
 * oldest first. A walk of `approvals_team_pending_idx` (only pending rows are in it).
 */
export async function listPendingApprovals(db: Db, { userId, teamIds }: { userId: number; teamIds: number[] }): Promise<Approval[]> {
  if (!teamIds.length) return [];
  const mySkills = db
    .select({ name: skills.name })
    .from(userSkills)
    .innerJoin(skills, eq(skills.id, userSkills.skillId))
    .where(and(eq(userSkills.userId, userId), eq(skills.teamId, approvals.teamId)));
  const rows = await selectApprovals(db)
    .where(
      and(
        inArray(approvals.teamId, teamIds),
        eq(approvals.status, 'pending'),
        sql`${approvals.expiresAt} > now()`,
        or(isNull(approvals.skill), inArray(approvals.skill, mySkills)),
      ),
    )
    .orderBy(asc(approvals.createdAt))
    .limit(LIMIT);
  return rows.map(toApprovalView);
}
