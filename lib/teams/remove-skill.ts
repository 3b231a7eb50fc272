import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { routingRules, skills, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/**
 * Deletes a skill (users lose it with it). Routing rules and VA fallbacks name skills as text, so
 * a skill still named there is kept (3008) rather than left dangling.
 */
export async function removeSkill(
  db: Db,
  { accountId, teamId, skillId }: { accountId: number; teamId: number; skillId: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [skill] = await tx
      .select()
      .from(skills)
      .where(and(eq(skills.id, skillId), eq(skills.teamId, teamId), eq(skills.accountId, accountId)))
      .for('update');
    if (!skill) throw new ApiError(3006, { detail: `no skill ${skillId} in team ${teamId}` });
    const [rule] = await tx
      .select({ name: routingRules.name })
      .from(routingRules)
      .where(and(eq(routingRules.accountId, accountId), eq(routingRules.teamId, teamId), eq(routingRules.skill, skill.name)))
      .limit(1);
    if (rule) throw new ApiError(3008, { detail: `routing rule "${rule.name}" sends chats to skill "${skill.name}"` });
    const [va] = await tx
      .select({ userId: virtualAgents.userId })
      .from(virtualAgents)
      .where(
        and(eq(virtualAgents.accountId, accountId), eq(virtualAgents.fallbackTeamId, teamId), eq(virtualAgents.fallbackSkill, skill.name)),
      )
      .limit(1);
    if (va) throw new ApiError(3008, { detail: `virtual agent ${va.userId} falls back to skill "${skill.name}"` });
    await tx.delete(skills).where(eq(skills.id, skillId));
  });
}
