import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { routingRules } from '@/db/schema';
import { ApiError } from '@/platform/errors';

export async function deleteRoutingRule(db: Db, { accountId, ruleId }: { accountId: number; ruleId: number }): Promise<void> {
  const deleted = await db
    .delete(routingRules)
    .where(and(eq(routingRules.id, ruleId), eq(routingRules.accountId, accountId)))
    .returning({ id: routingRules.id });
  if (!deleted.length) throw new ApiError(3006, { detail: `no routing rule ${ruleId}` });
}
