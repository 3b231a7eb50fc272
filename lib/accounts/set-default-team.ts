import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accounts } from '@/db/schema';
import { requireAccountTeam } from '@/lib/teams/check-references';

/** The team that receives chats no routing rule matched; null falls back to the oldest team. */
export async function setDefaultTeam(db: Db, { accountId, teamId }: { accountId: number; teamId: number | null }) {
  return db.transaction(async (tx) => {
    const team = teamId === null ? null : await requireAccountTeam(tx, { accountId, teamId, field: 'team_id' });
    await tx
      .update(accounts)
      .set({ defaultTeamId: team?.id ?? null, updatedAt: new Date() })
      .where(eq(accounts.id, accountId));
    return { default_team_id: team?.id ?? null, team_name: team?.name ?? null };
  });
}
