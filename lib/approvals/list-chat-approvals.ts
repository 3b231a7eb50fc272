import { and, desc, eq } from 'drizzle-orm';
import type { Approval } from '@/contracts/bot/schemas/approval';
import type { Db } from '@/db/client';
import { approvals } from '@/db/schema';
import { selectApprovals, toApprovalView } from './approval-view';

/** A chat's approval requests, newest first (the last 20), through `approvals_chat_idx`. */
export async function listChatApprovals(db: Db, { accountId, chatId }: { accountId: number; chatId: string }): Promise<Approval[]> {
  const rows = await selectApprovals(db)
    .where(and(eq(approvals.chatId, chatId), eq(approvals.accountId, accountId)))
    .orderBy(desc(approvals.createdAt))
    .limit(20);
  return rows.map(toApprovalView);
}
