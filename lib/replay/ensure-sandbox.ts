import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Channel } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { accounts, assets, skills, teams } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/**
 * The live account's replay sandbox, made on first use: an account of its own (`sandbox_of_account_id`)
 * with the live account's team and skill names (so a bot's transfer by team name lands the same way),
 * an asset per channel as replays need them, VAs made for replays, and no admins, agents or routing
 * rules. Its chats therefore reach no customer, no person, no list and no metric of the live account.
 * Teams added to the live account since are copied on each call.
 */
export async function ensureSandbox(db: Db, { accountId }: { accountId: number }): Promise<{ id: number }> {
  const [live] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!live || live.sandboxOfAccountId !== null) throw new ApiError(3006, { detail: 'no such live account' });
  await db
    .insert(accounts)
    .values({ name: `${live.name} (replay sandbox)`, sandboxOfAccountId: accountId, transferEnabled: live.transferEnabled })
    .onConflictDoNothing();
  const [sandbox] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.sandboxOfAccountId, accountId));
  await copyTeams(db, { from: accountId, to: sandbox.id });
  return sandbox;
}

async function copyTeams(db: Db, { from, to }: { from: number; to: number }) {
  const liveTeams = await db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.accountId, from));
  if (!liveTeams.length) return;
  // Never auto-assign: the sandbox has no people, and a chat handed over must simply wait in its queue.
  await db
    .insert(teams)
    .values(liveTeams.map((t) => ({ accountId: to, name: t.name, autoAssign: false })))
    .onConflictDoNothing();
  const sandboxTeams = await db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.accountId, to));
  const byName = new Map(sandboxTeams.map((t) => [t.name, t.id]));
  const liveSkills = await db
    .select({ teamId: skills.teamId, name: skills.name })
    .from(skills)
    .where(
      inArray(
        skills.teamId,
        liveTeams.map((t) => t.id),
      ),
    );
  const teamName = new Map(liveTeams.map((t) => [t.id, t.name]));
  const rows = liveSkills.flatMap((s) => {
    const teamId = byName.get(teamName.get(s.teamId) ?? '');
    return teamId ? [{ accountId: to, teamId, name: s.name }] : [];
  });
  if (rows.length) await db.insert(skills).values(rows).onConflictDoNothing();
  const [account] = await db.select({ defaultTeamId: accounts.defaultTeamId }).from(accounts).where(eq(accounts.id, to));
  if (account.defaultTeamId === null) {
    await db
      .update(accounts)
      .set({ defaultTeamId: sandboxTeams[0].id })
      .where(and(eq(accounts.id, to), isNull(accounts.defaultTeamId)));
  }
}

/** The sandbox's asset for a channel, made on first use. */
export async function sandboxAsset(db: Db, { sandboxId, channel }: { sandboxId: number; channel: Channel }): Promise<number> {
  const [found] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.accountId, sandboxId), eq(assets.channel, channel)))
    .limit(1);
  if (found) return found.id;
  const [made] = await db
    .insert(assets)
    .values({ accountId: sandboxId, channel, name: `Replay ${channel}` })
    .returning({ id: assets.id });
  return made.id;
}
