import { and, eq, inArray } from 'drizzle-orm';
import type { AdminVirtualAgent, UpdateVirtualAgentBody } from '@/contracts/admin/schemas/virtual-agent';
import type { Db } from '@/db/client';
import { skills, teamMemberships, userSkills, users, virtualAgents } from '@/db/schema';
import { forgetTokensOf } from '@/lib/bot-auth/token-cache';
import { withOutbox } from '@/lib/events/with-outbox';
import { requireAccountTeam, resolveSkillNames } from '@/lib/teams/check-references';
import { turnColumnsOf } from '@/lib/turns/turn-settings';
import { ApiError } from '@/platform/errors';
import {
  acceptWebhookHeaders,
  acceptWebhookUrl,
  checkFallback,
  checkReplyBudget,
  missingWebhookUrl,
  uniqueSubscriptions,
} from './check-webhook-settings';
import { disableVirtualAgent } from './disable-virtual-agent';
import { switchDeliveryMode } from './switch-delivery-mode';
import { getVirtualAgentOrFail } from './virtual-agent-view';

/**
 * PATCH /api/admin/virtual-agents/{id}. `name` and `description` are fixed at registration (3005).
 * A new `team_id` replaces the VA's one team membership; without `skills`, the VA keeps the skills
 * whose names also exist in the new team. `enabled: false` disables it (disable-virtual-agent.ts).
 */
export async function updateVirtualAgent(
  db: Db,
  { accountId, id, patch }: { accountId: number; id: number; patch: UpdateVirtualAgentBody },
): Promise<AdminVirtualAgent> {
  for (const field of ['name', 'description'] as const) {
    if (patch[field] !== undefined)
      throw new ApiError(3005, { detail: field, errors: [{ field, message: 'cannot be changed after creation' }] });
  }
  const webhookUrl = patch.webhook_url == null ? patch.webhook_url : await acceptWebhookUrl(patch.webhook_url);
  const webhookHeaders = patch.webhook_headers === undefined ? undefined : acceptWebhookHeaders(patch.webhook_headers);

  await withOutbox(db, async (tx) => {
    const [current] = await tx
      .select()
      .from(virtualAgents)
      .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)))
      .for('update');
    if (!current) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
    const [user] = await tx.select({ enabled: users.enabled, loginId: users.loginId }).from(users).where(eq(users.id, id)).for('update');

    const teamId = patch.team_id ?? current.teamId;
    const teamChanged = teamId !== current.teamId;
    if (teamChanged) {
      await requireAccountTeam(tx, { accountId, teamId, field: 'team_id' });
      await tx.delete(teamMemberships).where(eq(teamMemberships.userId, id));
      await tx.insert(teamMemberships).values({ teamId, userId: id });
    }
    if (patch.skills !== undefined || teamChanged) {
      const names = patch.skills ?? (await keptSkillNames(tx, { userId: id, teamId }));
      const skillIds = await resolveSkillNames(tx, { teamId, names, field: 'skills' });
      await tx.delete(userSkills).where(eq(userSkills.userId, id));
      if (skillIds.length) await tx.insert(userSkills).values(skillIds.map((skillId) => ({ userId: id, skillId })));
    }

    const fallbackTeamId = patch.fallback_team_id === undefined ? current.fallbackTeamId : patch.fallback_team_id;
    const fallbackSkill = patch.fallback_skill === undefined ? current.fallbackSkill : patch.fallback_skill;
    if (patch.fallback_team_id !== undefined || patch.fallback_skill !== undefined) {
      await checkFallback(tx, {
        accountId,
        teamId: fallbackTeamId,
        skill: fallbackSkill,
        teamChanged: fallbackTeamId !== current.fallbackTeamId,
      });
    }

    const deliveryMode = patch.delivery_mode ?? current.deliveryMode;
    const nextUrl = webhookUrl === undefined ? current.webhookUrl : webhookUrl;
    if (deliveryMode === 'webhook' && !nextUrl) throw missingWebhookUrl();
    if (deliveryMode !== current.deliveryMode) await switchDeliveryMode(tx, { accountId, vaUserId: id, to: deliveryMode });
    const replyTimeoutSeconds = patch.reply_timeout_seconds === undefined ? current.replyTimeoutSeconds : patch.reply_timeout_seconds;
    const replyTimeoutAction = patch.reply_timeout_action ?? current.replyTimeoutAction;
    checkReplyBudget({ seconds: replyTimeoutSeconds, action: replyTimeoutAction, fallbackTeamId });

    const now = new Date();
    await tx
      .update(virtualAgents)
      .set({
        replyTimeoutSeconds,
        replyTimeoutAction,
        ...turnColumnsOf(patch, current),
        maxHandoversPerChat: patch.max_handovers_per_chat ?? current.maxHandoversPerChat,
        personRequest: patch.person_request ?? current.personRequest,
        teamId,
        deliveryMode,
        webhookUrl: nextUrl,
        // A new address ends a stop caused by the old one answering 410 Gone.
        ...(webhookUrl && webhookUrl !== current.webhookUrl ? { webhookDisabledAt: null, webhookDisabledReason: null } : {}),
        webhookHeaders: webhookHeaders ?? current.webhookHeaders,
        subscriptions: patch.subscriptions ? uniqueSubscriptions(patch.subscriptions) : current.subscriptions,
        fallbackTeamId,
        fallbackSkill,
        updatedAt: now,
      })
      .where(eq(virtualAgents.userId, id));
    const userSet: Partial<typeof users.$inferInsert> = { updatedAt: now };
    if (patch.custom_attributes !== undefined) userSet.customAttributes = patch.custom_attributes;
    const disabling = patch.enabled === false && user.enabled;
    if (patch.enabled !== undefined && !disabling) userSet.enabled = patch.enabled;
    await tx.update(users).set(userSet).where(eq(users.id, id));
    if (!disabling) return;
    await disableVirtualAgent(tx, {
      accountId,
      vaId: id,
      loginId: user.loginId,
      fallback: { teamId: fallbackTeamId, skill: fallbackSkill },
    });
  });
  // A call checked while the transaction ran may have cached a token of the VA anew.
  if (patch.enabled === false) forgetTokensOf(id);
  return getVirtualAgentOrFail(db, { accountId, id });
}

/** Names of the VA's current skills that the team also has. */
async function keptSkillNames(tx: Db, { userId, teamId }: { userId: number; teamId: number }): Promise<string[]> {
  const current = await tx
    .select({ name: skills.name })
    .from(userSkills)
    .innerJoin(skills, eq(skills.id, userSkills.skillId))
    .where(eq(userSkills.userId, userId));
  if (!current.length) return [];
  const inTeam = await tx
    .select({ name: skills.name })
    .from(skills)
    .where(
      and(
        eq(skills.teamId, teamId),
        inArray(
          skills.name,
          current.map((s) => s.name),
        ),
      ),
    );
  return inTeam.map((s) => s.name);
}
