import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts, users, virtualAgents } from '@/db/schema';

/** GET /api/admin/replay/virtual-agents: the VAs of the account's replay sandbox (none before the first). */
export async function listSandboxVirtualAgents(db: Db, { accountId }: { accountId: number }) {
  const rows = await db
    .select({
      id: users.id,
      login_id: users.loginId,
      name: users.name,
      delivery_mode: virtualAgents.deliveryMode,
      webhook_url: virtualAgents.webhookUrl,
      sandbox_account_id: accounts.id,
    })
    .from(accounts)
    .innerJoin(users, and(eq(users.accountId, accounts.id), eq(users.kind, 'virtual_agent')))
    .innerJoin(virtualAgents, eq(virtualAgents.userId, users.id))
    .where(eq(accounts.sandboxOfAccountId, accountId))
    .orderBy(asc(users.id));
  return rows;
}
